//! The glob engine against the `globset` crate it replaces: for every combination of the
//! options the policy code uses, both must accept and reject the same globs and match the
//! same texts.

use proptest::prelude::*;

use super::{Glob, GlobOptions};

/// Pieces that make meaningful globs: stars in every position, classes, alternates (nested,
/// empty), escapes, separators and non-ASCII characters.
const PIECES: &[&str] = &[
    "**",
    "*",
    "?",
    "/",
    "a",
    "b",
    "A",
    ".",
    "é",
    "-",
    ",",
    "\\",
    "[a-b]",
    "[!a]",
    "[^/]",
    "[é]",
    "[a-é]",
    "[]a]",
    "[-a]",
    "[a-]",
    "[A-Z]",
    "{a,b}",
    "{a/**,b}",
    "{,a}",
    "{}",
    "{**,a}",
    "{a,{b,c}}",
    "[",
    "]",
    "{",
    "}",
    "\\*",
    "[*]",
    "\n",
];

/// Characters the texts are made of.
const TEXT_CHARS: &[char] = &[
    'a', 'b', 'A', 'B', 'c', '/', '.', '-', 'é', 'É', '\\', ',', '\n', '*', 'z',
];

fn options() -> impl Strategy<Value = GlobOptions> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(l, c, b)| GlobOptions {
        literal_separator: l,
        case_insensitive: c,
        backslash_escape: b,
    })
}

fn glob_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..8).prop_map(|p| p.concat())
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TEXT_CHARS), 0..14)
        .prop_map(|c| c.into_iter().collect())
}

/// A text that a glob could plausibly match: the glob with its metacharacters filled in.
fn near_text(glob: &str, fill: &[char]) -> String {
    let mut out = String::new();
    let mut fill = fill.iter().cycle();
    for c in glob.chars() {
        match c {
            '*' | '?' | '[' | ']' | '{' | '}' | ',' | '!' | '^' => {
                if let Some(f) = fill.next() {
                    out.push(*f);
                }
            }
            c => out.push(c),
        }
    }
    out
}

fn reference(glob: &str, o: GlobOptions) -> Result<globset::Glob, globset::Error> {
    globset::GlobBuilder::new(glob)
        .literal_separator(o.literal_separator)
        .case_insensitive(o.case_insensitive)
        .backslash_escape(o.backslash_escape)
        .build()
}

fn agree(glob: &str, o: GlobOptions, texts: &[String]) -> Result<(), TestCaseError> {
    let theirs = reference(glob, o);
    let ours = Glob::new(glob, o);
    match (&theirs, &ours) {
        (Err(t), Err(u)) => {
            prop_assert_eq!(
                t.kind().to_string(),
                u.to_string(),
                "glob {:?} {:?}",
                glob,
                o
            );
            return Ok(());
        }
        (Ok(_), Ok(_)) => {}
        _ => prop_assert!(
            false,
            "glob {:?} {:?}: globset {:?}, ours {:?}",
            glob,
            o,
            theirs.as_ref().err().map(ToString::to_string),
            ours.as_ref().err().map(ToString::to_string)
        ),
    }
    let (Ok(theirs), Ok(ours)) = (theirs, ours) else {
        return Ok(());
    };
    let single = theirs.compile_matcher();
    let mut set = globset::GlobSetBuilder::new();
    set.add(theirs.clone());
    let set = set
        .build()
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    for t in texts {
        let want = single.is_match(t);
        // A `GlobSet` can miss a match that the glob's own matcher finds when the text ends
        // in `.` or `..` (it sees no file name there and its name-based shortcuts fail); the
        // glob's meaning is its own matcher's, which is the wider reading.
        prop_assert!(
            want == set.is_match(t) || t.ends_with('.'),
            "globset disagrees with itself on {:?}",
            t
        );
        // Every way of answering agrees: the shortcut, the bit-set and the list automaton.
        prop_assert_eq!(
            ours.program.run(t),
            want,
            "automaton, glob {:?} text {:?}",
            glob,
            t
        );
        prop_assert_eq!(
            ours.program.is_match_sets(t),
            want,
            "lists, glob {:?} text {:?}",
            glob,
            t
        );
        prop_assert_eq!(
            ours.is_match(t),
            want,
            "glob {:?} {:?} text {:?} (regex {})",
            glob,
            o,
            t,
            theirs.regex()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 4000,
        // Found cases are kept beside this file (`tests.proptest-regressions`).
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    })]

    #[test]
    fn agrees_with_globset(
        glob in glob_text(),
        o in options(),
        texts in prop::collection::vec(text(), 6),
        fill in prop::collection::vec(prop::sample::select(TEXT_CHARS), 1..4),
    ) {
        let mut texts = texts;
        texts.push(near_text(&glob, &fill));
        texts.push(near_text(&glob, &['/']));
        texts.push(near_text(&glob, &['a', '/', 'b']));
        agree(&glob, o, &texts)?;
    }

    #[test]
    fn agrees_with_globset_on_any_characters(
        glob in "[a-c/*?\\[\\]{},!^\\\\é-]{0,10}",
        o in options(),
        texts in prop::collection::vec("[a-cA/é\\\\.*-]{0,10}", 8),
    ) {
        agree(&glob, o, &texts)?;
    }
}

#[test]
fn rule_shapes_agree() {
    let globs = [
        "**",
        "/**",
        "**/.env",
        "**/.env/**",
        "/srv/app/**",
        "/home/u/.ssh/**",
        "*.pem",
        "**/*.{pem,key}",
        "/a/**/b",
        "/a/**/**",
        "**/**",
        "git push *",
        "npm run test:*",
        "git * --force",
        "mcp__*",
        "a//b*/c",
        "/p/[!.]*",
        "/p/{a,b}/**",
        "rm -rf *",
    ];
    let texts: Vec<String> = [
        "",
        "/",
        ".env",
        "/.env",
        "/p/.env",
        "/p/.env/x",
        "/srv/app",
        "/srv/app/x/y",
        "/home/u/.ssh/id_rsa",
        "x.pem",
        "/a/b.PEM",
        "/k/x.key",
        "/a/b",
        "/a/x/b",
        "/a/x/y",
        "git push origin main",
        "git push",
        "npm run test:unit",
        "git x/y --force",
        "mcp__fs__read",
        "a//bz/c",
        "/p/.x",
        "/p/x",
        "/p/a/q",
        "rm -rf /",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    for g in globs {
        for l in [true, false] {
            for c in [true, false] {
                for b in [true, false] {
                    let o = GlobOptions {
                        literal_separator: l,
                        case_insensitive: c,
                        backslash_escape: b,
                    };
                    agree(g, o, &texts).unwrap();
                }
            }
        }
    }
}

#[test]
fn escaped_text_matches_itself_only() {
    for s in ["a*b", "[x]", "{a,b}", "q?", "plain"] {
        let g = Glob::new(&super::escape(s), GlobOptions::plain(true)).unwrap();
        assert!(g.is_match(s), "{s}");
        assert!(!g.is_match(&format!("{s}x")), "{s}");
        assert_eq!(super::escape(s), globset::escape(s));
    }
}

/// Side-by-side cost of the two engines on rule-shaped globs: compiling each glob, and
/// matching texts that hit and miss. `cargo test --release --lib glob::tests::speed --
/// --ignored --nocapture` prints the figures (docs/proof.md, "Package size").
#[test]
#[ignore = "a measurement, not a check"]
fn speed() {
    use std::hint::black_box;
    use std::time::Instant;
    let globs = [
        "/home/ada/proj/src/**",
        "**/.env",
        "**/.env.*",
        "/home/ada/.ssh/**",
        "**/*.pem",
        "/home/ada/proj/**/*.{key,pem}",
        "git push *",
        "npm run test:*",
        "cargo * --release",
        "/etc/**",
        "/home/ada/proj/build/**",
        "**/node_modules/**",
    ];
    let texts = [
        "/home/ada/proj/src/main.rs",
        "/home/ada/proj/.env",
        "/home/ada/proj/deep/a/b/c/d.txt",
        "/etc/passwd",
        "git push origin main",
        "npm run test:unit -- --watch",
        "/home/ada/proj/certs/server.pem",
        "/home/ada/proj/node_modules/x/index.js",
    ];
    let rounds = 2_000;
    let opts = GlobOptions::plain(true);
    let t = Instant::now();
    for _ in 0..rounds {
        for g in globs {
            black_box(Glob::new(black_box(g), opts).unwrap());
        }
    }
    let ours_compile = t.elapsed() / (rounds * globs.len() as u32);
    let t = Instant::now();
    for _ in 0..rounds {
        for g in globs {
            black_box(reference(black_box(g), opts).unwrap().compile_matcher());
        }
    }
    let theirs_compile = t.elapsed() / (rounds * globs.len() as u32);
    let ours: Vec<Glob> = globs.iter().map(|g| Glob::new(g, opts).unwrap()).collect();
    let mut set = globset::GlobSetBuilder::new();
    for g in globs {
        set.add(reference(g, opts).unwrap());
    }
    let set = set.build().unwrap();
    let t = Instant::now();
    let mut hits = 0usize;
    for _ in 0..rounds {
        for text in texts {
            hits += ours.iter().filter(|g| g.is_match(black_box(text))).count();
        }
    }
    let ours_match = t.elapsed() / (rounds * texts.len() as u32);
    let t = Instant::now();
    let mut set_hits = 0usize;
    for _ in 0..rounds {
        for text in texts {
            set_hits += set.matches(black_box(text)).len();
        }
    }
    let theirs_match = t.elapsed() / (rounds * texts.len() as u32);
    assert_eq!(hits, set_hits);
    println!(
        "compile one glob: ours {ours_compile:?}, globset {theirs_compile:?}; \
         match one text against {} globs: ours {ours_match:?}, globset set {theirs_match:?}",
        globs.len()
    );
}
