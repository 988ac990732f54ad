//! The files a compiler writes without the line naming them: GCC's and Clang's `a.out`,
//! `x.o` (`-c`), `x.s` (`-S`), a header's `h.h.gch` and their auxiliary outputs
//! (`-save-temps`, `-MD`, `-fstack-usage`, ...), rustc's outputs for each `--emit` kind, and
//! javac's `X.class`. Each is judged as a write, as `-o FILE` is: a name already in the
//! directory may be a link to a protected path (`a.out` → `.git/hooks/pre-commit`), which the
//! compiler opens and writes through. Where the source chooses names too (rustc's codegen
//! units and `#![crate_name]`, javac's one class file per class), every entry already in the
//! output directory is judged as written ([`unnamed_output_patterns`]).

use super::super::canonical::program_name;
use super::super::word::Word;
use super::Writes;
use crate::commands::{compiler_driver, compiler_operands, is_tool, unversioned_tool};

/// The endings of GCC's and Clang's auxiliary outputs and the options that write them (an
/// option is the start of its word: `-save-temps=obj`, `-fcallgraph-info=su`). `-MD` and
/// `-MMD` write a dependency file only without `-MF` ([`gives_dependency_file`]).
const AUXILIARY_OUTPUTS: &[(&str, &[&str])] = &[
    ("-save-temps", &["i", "ii", "s", "o", "bc"]),
    ("--save-temps", &["i", "ii", "s", "o", "bc"]),
    ("-fstack-usage", &["su"]),
    ("-fcallgraph-info", &["ci"]),
    ("-gsplit-dwarf", &["dwo"]),
    ("-ftest-coverage", &["gcno"]),
    ("--coverage", &["gcno"]),
];

/// Options after which GCC writes files whose names the line does not give, below the
/// directory of its outputs: the dumps of its passes (`x.c.005t.original`).
const NAMELESS_OUTPUTS: &[&str] = &["-fdump-"];

/// The link-time optimisation option: with `-save-temps`, its temporary files are kept, under
/// names the line does not give (`a.ltrans0.ltrans.o`).
const LINK_TIME_OPTIMISATION: &str = "-flto";

/// What the compiler driver or rustc `words` writes without naming it (see the module
/// documentation); nothing for other programs, or when a word is known only at run time (the
/// line is unanalysable then).
pub(crate) fn implied_outputs(words: &[Word]) -> Writes {
    let Some(first) = words.first() else {
        return Writes::default();
    };
    if words.iter().any(|w| w.dynamic.is_some()) {
        return Writes::default();
    }
    let values: Vec<String> = words.iter().map(|w| w.value.clone()).collect();
    let name = program_name(&first.value);
    let (files, below) = if compiler_driver(name).is_some() {
        driver_outputs(&values)
    } else if is_tool(name, "rustc") {
        rustc_outputs(&values)
    } else if is_tool(name, "javac") {
        (javac_outputs(&values).0, Vec::new())
    } else {
        return Writes::default();
    };
    Writes {
        files: dedup(files).iter().map(|f| Word::literal(f)).collect(),
        below: dedup(below).iter().map(|d| Word::literal(d)).collect(),
        links: false,
    }
}

/// The names of [`implied_outputs`] as written (relative ones from where the compiler
/// runs), for the hosts that resolve the line's paths.
pub(crate) fn implied_output_names(words: &[Word]) -> Vec<String> {
    let out = implied_outputs(words);
    out.files
        .into_iter()
        .chain(out.below)
        .map(|w| w.value)
        .collect()
}

/// Glob patterns of the entries already in the directories where the compiler `words` writes
/// files the source names, not the line (`*` for the working directory, `out/*` for
/// `--out-dir out`): rustc's codegen units (`x.x.HASH-cgu.0.rcgu.o`, deterministic for a
/// given rustc and source) and the crate a `#![crate_name]` names, beside its outputs
/// (`--out-dir`, `-o`'s directory, and here); javac's class file for each class of the
/// source (`Y.class` of `class Y` in `X.java`), below `-d` or beside the source, and its
/// generated sources and headers below `-s` and `-h`. An entry there may be a link to a
/// protected path, which the compiler writes through. Nothing for other programs, or when a
/// word is known only at run time.
///
/// ```text
/// unnamed_output_patterns(["rustc", "x.rs"]) == ["*"]
/// unnamed_output_patterns(["javac", "-d", "out", "X.java"]) == ["out/*"]
/// ```
pub(crate) fn unnamed_output_patterns(words: &[Word]) -> Vec<String> {
    let Some(first) = words.first() else {
        return Vec::new();
    };
    if words.iter().any(|w| w.dynamic.is_some()) {
        return Vec::new();
    }
    let values: Vec<String> = words.iter().map(|w| w.value.clone()).collect();
    let dirs = match unversioned_tool(&first.value).as_str() {
        "rustc" => rustc_output_directories(&values),
        "javac" => javac_outputs(&values).1,
        _ => return Vec::new(),
    };
    dedup(dirs)
        .iter()
        .map(|d| match d.trim_end_matches('/') {
            "." => "*".to_owned(),
            "" => "/*".to_owned(),
            d => format!("{}/*", super::super::glob::escape(d)),
        })
        .collect()
}

/// Whether `path`, found for an [`unnamed_output_patterns`] pattern, may be a file the
/// compiler writes there: the source names only identifiers (crates, codegen units, classes),
/// so never a name starting with `.` (which the widest reading of `*` matches too).
pub(crate) fn may_be_unnamed_output(path: &str) -> bool {
    !path.rsplit('/').next().unwrap_or(path).starts_with('.')
}

/// `names` without repeats, in their first order.
fn dedup(names: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for n in names {
        if !n.is_empty() && !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// The file name of `path` without its directory and its last ending (`src/x.c` → `x`).
fn stem(path: &str) -> &str {
    let file = path.rsplit('/').next().unwrap_or(path);
    match file.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem,
        _ => file,
    }
}

/// `path` without its last ending, keeping its directory (`out/app.o` → `out/app`).
fn without_ending(path: &str) -> &str {
    let (dir_len, file) = match path.rsplit_once('/') {
        Some((dir, file)) => (dir.len() + 1, file),
        None => (0, path),
    };
    match file.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => path.get(..dir_len + stem.len()).unwrap_or(path),
        _ => path,
    }
}

/// The value of the option `option` in `args`: attached (`-oFILE`, `--out-dir=D`) or the next
/// word; the last one given counts, as the compilers read them.
fn option_value<'a>(args: &'a [String], option: &str) -> Option<&'a str> {
    let mut found = None;
    for (i, w) in args.iter().enumerate() {
        if w == option {
            found = args.get(i + 1).map(String::as_str).or(found);
        } else if let Some(v) = w.strip_prefix(option) {
            let v = if option.starts_with("--") {
                v.strip_prefix('=')
            } else {
                Some(v)
            };
            found = v.filter(|v| !v.is_empty()).or(found);
        }
    }
    found
}

/// Whether GCC given `args` writes a dependency file named after its output or source:
/// `-MD` or `-MMD` (also passed on as `-Wp,-MD`) without `-MF` naming it.
fn gives_dependency_file(args: &[String]) -> bool {
    let md = args.iter().any(|a| a == "-MD" || a == "-MMD");
    md && !args.iter().any(|a| a.starts_with("-MF"))
}

/// The files GCC or Clang given `words` writes without naming them, and the directories
/// below which it writes files of names the line does not give.
fn driver_outputs(words: &[String]) -> (Vec<String>, Vec<String>) {
    let args = words.get(1..).unwrap_or_default();
    let has = |o: &str| args.iter().any(|a| a == o);
    let only_prints = args.iter().any(|a| {
        matches!(
            a.as_str(),
            "--version" | "--help" | "-###" | "-dumpversion" | "-dumpmachine"
        ) || a.starts_with("-print-")
    });
    let sources = compiler_operands(words);
    if only_prints || sources.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let output = option_value(args, "-o").filter(|o| *o != "-");
    let preprocess_only = has("-E") || has("-M") || has("-MM");
    let stems: Vec<&str> = sources.iter().map(|s| stem(s)).collect();
    let mut files = Vec::new();
    if output.is_none() && !preprocess_only {
        // A header is precompiled to `h.h.gch` beside it, whatever `-c` or `-S` say.
        files.extend(
            sources
                .iter()
                .filter(|s| is_header(args, s))
                .map(|s| format!("{s}.gch")),
        );
        if has("-S") {
            files.extend(stems.iter().map(|s| format!("{s}.s")));
        } else if has("-c") {
            files.extend(stems.iter().map(|s| format!("{s}.o")));
        } else {
            files.push("a.out".to_owned());
        }
    }
    let mut endings: Vec<&str> = AUXILIARY_OUTPUTS
        .iter()
        .filter(|(option, _)| args.iter().any(|a| a.starts_with(option)))
        .flat_map(|(_, endings)| endings.iter().copied())
        .collect();
    if gives_dependency_file(args) {
        endings.push("d");
    }
    let bases = auxiliary_bases(args, output, &stems);
    for base in &bases {
        files.extend(endings.iter().map(|e| format!("{base}.{e}")));
    }
    let starts = |p: &str| args.iter().any(|a| a.starts_with(p));
    let nameless = NAMELESS_OUTPUTS.iter().any(|o| starts(o))
        || (starts(LINK_TIME_OPTIMISATION) && starts("-save-temps"));
    let below = if nameless {
        let mut dirs = vec![".".to_owned()];
        dirs.extend(
            output
                .and_then(|o| o.rsplit_once('/'))
                .map(|(d, _)| d.to_owned()),
        );
        dirs.extend(option_value(args, "-dumpdir").map(str::to_owned));
        dirs
    } else {
        Vec::new()
    };
    (files, below)
}

/// The names GCC's auxiliary outputs start with, read widely (versions differ): each
/// source's stem (`x` of `x.c`), `a-` before it when it links without `-o` (GCC 11 and
/// later), the output without its ending (`q` of `-o q.o`) and with `-` and the stem after
/// it (`app-x`, beside the output or here), and `-dumpbase`'s name, in `-dumpdir` too.
fn auxiliary_bases(args: &[String], output: Option<&str>, stems: &[&str]) -> Vec<String> {
    let mut bases: Vec<String> = Vec::new();
    for s in stems {
        bases.push((*s).to_owned());
        bases.push(format!("a-{s}"));
        if let Some(o) = output {
            let file = o.rsplit('/').next().unwrap_or(o);
            bases.push(format!("{o}-{s}"));
            bases.push(format!("{file}-{s}"));
            bases.push(format!("{}-{s}", without_ending(o)));
        }
    }
    bases.extend(output.map(|o| without_ending(o).to_owned()));
    if let Some(b) = option_value(args, "-dumpbase") {
        bases.push(without_ending(b).to_owned());
    }
    if let Some(dir) = option_value(args, "-dumpdir") {
        let here: Vec<String> = bases.clone();
        bases.extend(here.iter().map(|b| format!("{dir}{b}")));
    }
    bases
}

/// Whether GCC or Clang reads `source` as a header, whose `-c` (or any compile without
/// `-o`) writes the precompiled `source.gch` beside it: by its ending (`.h`, `.hh`, `.hpp`,
/// `.hxx`, `.h++`, `.H`, `.HPP`, `.tcc`), or after `-x c-header` (`c++-header`,
/// `objective-c-header`, ...; `-xc-header`) before it.
fn is_header(args: &[String], source: &str) -> bool {
    const HEADER_ENDINGS: &[&str] = &["h", "hh", "hpp", "hxx", "h++", "H", "HPP", "tcc"];
    let mut language: Option<&str> = None;
    let mut value_next = false;
    for a in args {
        if std::mem::take(&mut value_next) {
            language = Some(a);
        } else if a == "-x" {
            value_next = true;
        } else if let Some(l) = a.strip_prefix("-x") {
            language = Some(l);
        } else if a == source {
            return match language {
                Some("none") | None => source
                    .rsplit_once('.')
                    .is_some_and(|(_, e)| HEADER_ENDINGS.contains(&e)),
                Some(l) => l.ends_with("-header"),
            };
        }
    }
    false
}

/// The endings rustc gives each `--emit` kind but `link` and `metadata` (named after the
/// crate: [`rustc_outputs`]).
const RUSTC_EMIT_ENDINGS: &[(&str, &str)] = &[
    ("asm", "s"),
    ("llvm-ir", "ll"),
    ("llvm-bc", "bc"),
    ("obj", "o"),
    ("dep-info", "d"),
    ("mir", "mir"),
];

/// The files rustc given `words` writes without naming them: for each `--emit` kind without a
/// path of its own (`link` when none is given), the crate's file below `--out-dir` (or here),
/// named after the source's stem and the crate's name (`--crate-name`, else the stem with `-`
/// read as `_`), or after `-o`'s name; and, with `-C save-temps`, files of names the line does
/// not give there.
fn rustc_outputs(words: &[String]) -> (Vec<String>, Vec<String>) {
    let args = words.get(1..).unwrap_or_default();
    let sources = compiler_operands(words);
    if !rustc_compiles(words) {
        return (Vec::new(), Vec::new());
    }
    let dir = option_value(args, "--out-dir")
        .map_or(String::new(), |d| format!("{}/", d.trim_end_matches('/')));
    let extra = codegen_value(args, "extra-filename").unwrap_or_default();
    let output = option_value(args, "-o").filter(|o| *o != "-");
    let mut crates: Vec<String> = Vec::new();
    let mut bases: Vec<String> = Vec::new();
    match output {
        Some(o) => bases.push(without_ending(o).to_owned()),
        None => {
            for s in sources.iter().map(|s| stem(s)) {
                let crate_name = option_value(args, "--crate-name")
                    .map_or_else(|| s.replace('-', "_"), str::to_owned);
                bases.push(format!("{dir}{s}{extra}"));
                bases.push(format!("{dir}{crate_name}{extra}"));
                crates.push(format!("{dir}lib{crate_name}{extra}"));
            }
        }
    }
    let kinds = emit_kinds(args);
    let mut files = Vec::new();
    for kind in &kinds {
        match *kind {
            // The linked crate, of any type the source may declare.
            "link" if output.is_none() => {
                files.extend(bases.iter().cloned());
                for c in &crates {
                    files.extend(["rlib", "so", "a"].iter().map(|e| format!("{c}.{e}")));
                }
            }
            "metadata" => files.extend(crates.iter().map(|c| format!("{c}.rmeta"))),
            kind => {
                if let Some((_, e)) = RUSTC_EMIT_ENDINGS.iter().find(|(k, _)| *k == kind) {
                    files.extend(bases.iter().map(|b| format!("{b}.{e}")));
                }
            }
        }
    }
    let below = match codegen_value(args, "save-temps") {
        Some(_) => vec![if dir.is_empty() { ".".to_owned() } else { dir }],
        None => Vec::new(),
    };
    (files, below)
}

/// The directories rustc given `words` writes its outputs in, the codegen units' objects
/// with them: `--out-dir`, `-o`'s directory, and the working directory (read widely: the
/// temporaries of some versions land here whatever the others say).
fn rustc_output_directories(words: &[String]) -> Vec<String> {
    let args = words.get(1..).unwrap_or_default();
    if !rustc_compiles(words) {
        return Vec::new();
    }
    let mut dirs = vec![".".to_owned()];
    dirs.extend(option_value(args, "--out-dir").map(str::to_owned));
    dirs.extend(
        option_value(args, "-o")
            .and_then(|o| o.rsplit_once('/'))
            .map(|(d, _)| d.to_owned()),
    );
    dirs
}

/// Whether rustc given `words` compiles a source (it names one, and no option makes it only
/// print).
fn rustc_compiles(words: &[String]) -> bool {
    let args = words.get(1..).unwrap_or_default();
    let only_prints = args
        .iter()
        .any(|a| a.starts_with("--print") || a == "--version" || a == "-V" || a == "--help");
    !only_prints && !compiler_operands(words).is_empty()
}

/// javac's options that name a directory it writes below: class files (`-d`), generated
/// sources (`-s`) and native headers (`-h`).
const JAVAC_OUTPUT_DIRECTORIES: &[&str] = &["-d", "-s", "-h"];

/// What javac given `words` writes: the class file named after each `.java` source (below
/// `-d`, else beside the source), and the directories it writes files the source names in
/// (those of the class files, `-s` and `-h`).
fn javac_outputs(words: &[String]) -> (Vec<String>, Vec<String>) {
    let args = words.get(1..).unwrap_or_default();
    let mut sources: Vec<&str> = Vec::new();
    let mut dirs: Vec<(&str, &str)> = Vec::new();
    let mut pending: Option<&str> = None;
    for a in args {
        if let Some(option) = pending.take() {
            dirs.push((option, a));
        } else if JAVAC_OUTPUT_DIRECTORIES.contains(&a.as_str()) {
            pending = Some(a);
        } else if !a.starts_with('-') && a.ends_with(".java") {
            sources.push(a);
        }
    }
    if sources.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let classes = dirs.iter().rev().find(|(o, _)| *o == "-d").map(|(_, d)| *d);
    let mut files = Vec::new();
    let mut places: Vec<String> = dirs
        .iter()
        .filter(|(o, _)| *o != "-d")
        .map(|(_, d)| (*d).to_owned())
        .collect();
    for s in &sources {
        match classes {
            Some(d) => files.push(format!("{}/{}.class", d.trim_end_matches('/'), stem(s))),
            None => files.push(format!("{}.class", without_ending(s))),
        }
        places.push(match (classes, s.rsplit_once('/')) {
            (Some(d), _) => d.to_owned(),
            (None, Some((dir, _))) => dir.to_owned(),
            (None, None) => ".".to_owned(),
        });
    }
    (files, places)
}

/// The `--emit` kinds rustc is given without a path of their own (`--emit=asm,obj`,
/// `--emit link`; `link=FILE` names its file, judged as written): `link` when none is.
fn emit_kinds(args: &[String]) -> Vec<&str> {
    let mut given = false;
    let mut kinds = Vec::new();
    for (i, w) in args.iter().enumerate() {
        let value = match w.strip_prefix("--emit") {
            Some("") => args.get(i + 1).map(String::as_str),
            Some(v) => v.strip_prefix('='),
            None => None,
        };
        let Some(value) = value else { continue };
        given = true;
        kinds.extend(
            value
                .split(',')
                .filter(|k| !k.is_empty() && !k.contains('=')),
        );
    }
    if !given {
        kinds.push("link");
    }
    kinds
}

/// The value of rustc's code generation setting `key` (`-C key=VALUE`, `-Ckey=VALUE`,
/// `--codegen key=VALUE`; `_` read as `-`), the last one given; an empty value for a
/// setting given without one (`-C save-temps`).
fn codegen_value(args: &[String], key: &str) -> Option<String> {
    let mut found = None;
    for (i, w) in args.iter().enumerate() {
        let setting = match w.as_str() {
            "-C" | "--codegen" => args.get(i + 1).map(String::as_str),
            _ => w
                .strip_prefix("-C")
                .or_else(|| w.strip_prefix("--codegen="))
                .filter(|s| !s.is_empty()),
        };
        let Some(setting) = setting else { continue };
        let (k, v) = setting.split_once('=').unwrap_or((setting, ""));
        if k.replace('_', "-") == key {
            found = Some(v.to_owned());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outputs(line: &str) -> (Vec<String>, Vec<String>) {
        let words: Vec<Word> = line.split(' ').map(Word::literal).collect();
        let out = implied_outputs(&words);
        let names = |ws: Vec<Word>| ws.into_iter().map(|w| w.value).collect::<Vec<_>>();
        (names(out.files), names(out.below))
    }

    fn files(line: &str) -> Vec<String> {
        outputs(line).0
    }

    #[test]
    fn a_driver_writes_its_default_output_when_no_o_names_one() {
        assert_eq!(files("gcc x.c"), ["a.out"]);
        assert_eq!(files("cc -O2 x.c y.c"), ["a.out"]);
        assert_eq!(files("gcc -c x.c src/y.c"), ["x.o", "y.o"]);
        assert_eq!(files("gcc -S x.c"), ["x.s"]);
        assert_eq!(files("x86_64-linux-gnu-gcc-12 -c -I inc x.c"), ["x.o"]);
        for quiet in [
            "gcc -O2 -o app main.c",
            "gcc -c -o x.o x.c",
            "gcc -E x.c",
            "gcc -M x.c",
            "gcc --version",
            "gcc -print-search-dirs",
            "gcc",
            "ls x.c",
        ] {
            assert!(files(quiet).is_empty(), "{quiet}: {:?}", files(quiet));
        }
    }

    #[test]
    fn auxiliary_outputs_are_named_as_every_gcc_names_them() {
        for (line, name) in [
            ("gcc -save-temps x.c", "a-x.i"),
            ("gcc -save-temps x.c", "a-x.s"),
            ("gcc -save-temps x.c", "x.i"),
            ("gcc -save-temps -c x.c", "x.s"),
            ("gcc -save-temps -o app x.c", "app-x.o"),
            ("gcc -save-temps=obj -o out/app x.c", "out/app-x.i"),
            ("gcc -c -o q.o x.c -save-temps", "q.s"),
            ("gcc -c x.c -MD", "x.d"),
            ("gcc -MD x.c", "a-x.d"),
            ("gcc -MMD -o app x.c", "app.d"),
            ("gcc -c -MD -o z.o x.c", "z.d"),
            ("gcc -E -MD x.c", "x.d"),
            ("gcc -fstack-usage -c x.c", "x.su"),
            ("gcc -fcallgraph-info -c x.c", "x.ci"),
            ("gcc -gsplit-dwarf x.c", "a-x.dwo"),
            ("gcc --coverage -c x.c", "x.gcno"),
            ("gcc -dumpbase foo -save-temps -c x.c", "foo.i"),
        ] {
            assert!(files(line).iter().any(|f| f == name), "{line}: {name}");
        }
        assert!(!files("gcc -c -MD -MF deps/x.d x.c")
            .iter()
            .any(|f| f.ends_with(".d")));
        assert_eq!(outputs("gcc -fdump-tree-all x.c").1, ["."]);
        assert_eq!(
            outputs("gcc -flto -save-temps -o out/app x.c").1,
            [".", "out"]
        );
        assert!(outputs("gcc -flto -O2 -o app x.c").1.is_empty());
    }

    #[test]
    fn rustc_writes_each_emit_kind_after_the_crate() {
        for (line, name) in [
            ("rustc my-x.rs", "my-x"),
            ("rustc my-x.rs", "my_x"),
            ("rustc my-x.rs", "libmy_x.rlib"),
            ("rustc --emit=asm,dep-info x.rs", "x.s"),
            ("rustc --emit=asm,dep-info x.rs", "x.d"),
            ("rustc --emit llvm-ir,llvm-bc,obj x.rs", "x.ll"),
            ("rustc --emit=llvm-bc x.rs", "x.bc"),
            ("rustc --emit=obj x.rs", "x.o"),
            ("rustc --emit=metadata x.rs", "libx.rmeta"),
            ("rustc --out-dir out --emit=asm x.rs", "out/x.s"),
            ("rustc --crate-name foo --emit=asm x.rs", "foo.s"),
            ("rustc --emit=asm,obj -o zz.q x.rs", "zz.s"),
            ("rustc -C extra-filename=-h x.rs", "x-h"),
        ] {
            assert!(files(line).iter().any(|f| f == name), "{line}: {name}");
        }
        assert!(files("rustc --emit=asm x.rs").iter().all(|f| f == "x.s"));
        assert!(files("rustc --emit=link=app x.rs").is_empty());
        assert!(files("rustc -o app x.rs").is_empty());
        assert!(files("rustc --version").is_empty());
        assert_eq!(outputs("rustc -C save-temps x.rs").1, ["."]);
    }

    #[test]
    fn a_header_is_precompiled_beside_itself() {
        for (line, name) in [
            ("gcc -c sub/h.h", "sub/h.h.gch"),
            ("g++ x.hpp", "x.hpp.gch"),
            ("g++ -c a.hh b.hxx", "b.hxx.gch"),
            ("gcc -S X.H", "X.H.gch"),
            ("gcc -x c-header -c x.c", "x.c.gch"),
            ("g++ -xc++-header -c x.cc", "x.cc.gch"),
        ] {
            assert!(files(line).iter().any(|f| f == name), "{line}: {name}");
        }
        for (line, not) in [
            ("gcc -c -o pch/h.gch h.h", "h.h.gch"),
            ("gcc -E h.h", "h.h.gch"),
            ("gcc -x c-header -c a.c -x none b.c", "b.c.gch"),
            ("gcc -c x.c", "x.c.gch"),
        ] {
            assert!(!files(line).iter().any(|f| f == not), "{line}: {not}");
        }
    }

    #[test]
    fn javac_writes_a_class_file_after_each_source() {
        assert_eq!(files("javac X.java"), ["X.class"]);
        assert_eq!(files("javac src/p/X.java"), ["src/p/X.class"]);
        assert_eq!(
            files("javac -d out/ src/X.java Y.java"),
            ["out/X.class", "out/Y.class"]
        );
        assert!(files("javac -version").is_empty());
    }

    fn patterns(line: &str) -> Vec<String> {
        let words: Vec<Word> = line.split(' ').map(Word::literal).collect();
        unnamed_output_patterns(&words)
    }

    #[test]
    fn the_directories_where_the_source_names_outputs_are_listed() {
        assert_eq!(patterns("rustc x.rs"), ["*"]);
        assert_eq!(
            patterns("rustc --out-dir out -o bin/app x.rs"),
            ["*", "out/*", "bin/*"]
        );
        assert_eq!(patterns("rustc --emit=metadata x.rs"), ["*"]);
        assert_eq!(patterns("javac X.java"), ["*"]);
        assert_eq!(patterns("javac src/X.java"), ["src/*"]);
        assert_eq!(
            patterns("javac -s gen -d o[1] X.java"),
            ["gen/*", "o\\[1\\]/*"]
        );
        for quiet in ["rustc --version", "rustc", "javac", "gcc -c x.c", "ls x.rs"] {
            assert!(patterns(quiet).is_empty(), "{quiet}");
        }
        assert!(may_be_unnamed_output("out/Y.class"));
        assert!(!may_be_unnamed_output("out/.git"));
        assert!(!may_be_unnamed_output(".bashrc"));
    }
}
