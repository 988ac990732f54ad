use super::*;

fn words(line: &str) -> Vec<String> {
    line.split(' ').map(str::to_owned).collect()
}

fn read_only(line: &str) -> bool {
    effects(&words(line)).is_some_and(|e| e.not_read_only.is_none())
}

fn reads(line: &str) -> Vec<String> {
    let w = words(line);
    let e = effects(&w).unwrap();
    e.reads
        .iter()
        .chain(&e.reads_below)
        .map(|t| target_text(&w, *t).unwrap().to_owned())
        .collect()
}

#[test]
fn every_table_line_reads() {
    for p in programs() {
        for line in p.option_lines() {
            assert!(OptionSpec::parse(line).is_some(), "{}: `{line}`", p.name);
        }
        for s in p.subcommands {
            for line in s.option_lines() {
                assert!(
                    OptionSpec::parse(line).is_some(),
                    "{} {}: `{line}`",
                    p.name,
                    s.name
                );
            }
        }
        assert!(!p.source.is_empty());
    }
}

#[test]
fn read_only_spellings() {
    for line in [
        "ls -la src",
        "ls --all --color=auto",
        "ls --almost",
        "head -50 README.md",
        "head -n 5 a",
        "head -n5 a",
        "tail -f log",
        "wc -l src/lib.rs",
        "grep -rn foo src",
        "grep -e foo -e bar x",
        "grep --colour=always x y",
        "sort -u -k2 x",
        "sort --rev x",
        "cut -d: -f1 /etc/passwd",
        "git status",
        "git status --short",
        "git log --oneline -5",
        "git log -n 3 --stat",
        "git diff --cached",
        "git show HEAD:src/lib.rs",
        "git stash list",
        "git config --get user.name",
        "git --no-pager log -1",
        "git branch -a",
        "git rev-parse --show-toplevel",
        "git --version",
        "sed -n 1,40p src/lib.rs",
        "sed -n -e 1,5p -e 9q x",
        "jq .name package.json",
        "jq -r .scripts.test package.json",
        "find src -name x -type f",
        "rg TODO src",
        "make --version",
        "node -v",
        "echo --anything goes",
        "tar -tf x.tar",
        "tar tf x.tar",
        "date +%s",
    ] {
        assert!(read_only(line), "{line}: {:?}", effects(&words(line)));
    }
}

#[test]
fn what_an_option_is_decides() {
    for line in [
        "git grep -Ocat foo",
        "git grep --open-files-in-pager=cat foo",
        "sort --compress-prog=x a",
        "sort --compress-program=x a",
        "sort --out=F a",
        "sort -oF a",
        "sort -ro F a",
        "file -C",
        "find . -fprint x",
        "find . -exec rm {} ;",
        "find . -delete",
        "find . -frobnicate",
        "jq -n env",
        "jq $ENV",
        "jq -f prog.jq x",
        "ls --frobnicate",
        "ls -@",
        "git push",
        "git stash",
        "git config --list",
        "grep -R foo .",
        "git stash drop",
        "git branch new",
        "git branch -D x",
        "git tag v1",
        "git config user.name x",
        "git -c a=b status",
        "git -C /tmp status",
        "git --exec-path=/x status",
        "git diff --output=x",
        "git diff --ext-diff",
        "git log --outp=x",
        "sed -i s/a/b/ x",
        "sed s/a/b/e x",
        "sed -e 1w/tmp/x x",
        "sed --expression=1e x",
        "rg --pre cat x",
        "rg -z x",
        "date -s now",
        "date --set=now",
        "uniq a b",
        "xxd -r a",
        "hostname evil",
        "printf -v x y",
        "cargo build",
        "diff --paginate a b",
        "tar -xf x.tar",
        "tar xf x.tar",
        "tar --to-command=sh -xf x",
        "tar -I sh -cf x y",
        "tree -o out",
        "cp a b",
        "dd if=a of=b",
        "dd if=a oflag=x foo",
    ] {
        assert!(!read_only(line), "{line}");
    }
}

#[test]
fn files_read_are_found_in_every_spelling() {
    assert_eq!(reads("grep --file=F x y"), ["F", "x", "y"]);
    assert_eq!(reads("grep -fF x"), ["F", "x"]);
    assert_eq!(reads("grep foo a b"), ["a", "b"]);
    assert_eq!(reads("grep -r foo"), ["."]);
    assert_eq!(reads("rg foo src"), ["src"]);
    assert_eq!(reads("git grep foo main"), ["main", "."]);
    assert_eq!(reads("diff --from-file=F a"), ["F", "a"]);
    assert_eq!(reads("date -f F"), ["F", "/"]);
    assert_eq!(reads("wc --files0-from=F"), ["F", "/"]);
    assert_eq!(reads("git blame --contents=F x"), ["F", "x"]);
    assert_eq!(reads("file --magic-file=F x"), ["F", "x", "/"]);
    assert_eq!(reads("cp .env /tmp/x"), [".env"]);
    assert_eq!(reads("dd if=.env"), [".env"]);
    assert_eq!(reads("tar -cf x .env"), ["x", ".env"]);
    assert_eq!(reads("tar czf x .env"), ["x", ".env"]);
    assert_eq!(reads("base64 .env"), [".env"]);
    assert_eq!(reads("find src -newer .env"), ["src", ".env"]);
    assert_eq!(reads("sed -n 1p .env"), [".env"]);
    assert_eq!(reads("jq . .env"), [".env"]);
    assert_eq!(reads("jq --rawfile x .env ."), [".env"]);
}

#[test]
fn jq_modules_may_be_read_from_anywhere() {
    let effects_of = |line: &[&str]| {
        let words: Vec<String> = line.iter().map(|w| (*w).to_owned()).collect();
        effects(&words).unwrap()
    };
    for line in [
        &[
            "jq",
            "-n",
            r#"import "secrets/config" as $d {search: "./"}; $d"#,
        ][..],
        &["jq", "-n", "-L", ".", r#"include "secrets/config"; ."#],
        &["jq", "-f", "prog.jq", "x"],
    ] {
        let e = effects_of(line);
        assert!(e.reads_unnamed, "{line:?}");
        assert!(e.not_read_only.is_some(), "{line:?}");
    }
    assert!(!effects_of(&["jq", ".name", "package.json"]).reads_unnamed);
}

#[test]
fn runners_are_one_list() {
    for r in [
        "xargs", "awk", "gawk", "busybox", "fakeroot", "npx", "vim", "gdb", "tmux", "screen",
        "docker", "ssh", "parallel", "node", "python3", "bash", "env", "sudo",
    ] {
        assert!(runs_code(r), "{r}");
    }
    for p in programs() {
        assert!(
            !runs_code(p.name)
                || p.name == "find"
                || interpreter_base(p.name).is_some()
                || p.name == "set"
                || TRANSPARENT_WRAPPERS.contains(&p.name),
            "{} is in the table and a runner",
            p.name
        );
    }
}

fn runs_by_its_words(line: &str) -> bool {
    runs_by_option(&words(line)).is_some()
}

#[test]
fn make_variables_run_whatever_their_name_and_after_a_double_dash() {
    for line in [
        "make SHELL=/tmp/sh x",
        "make -- SHELL=/tmp/sh x",
        "make a/!=id x",
        "make a/:=$(shell id) x",
        "make ./!=id x",
        "make X::=1 x",
        "make X:::=1 x",
        "make X?=1 x",
        "make X+=1 x",
        "make =x",
        "make -- -x!=id",
        "gmake -- CC=/tmp/cc x",
    ] {
        assert!(runs_by_its_words(line), "{line}");
    }
    for line in [
        "make",
        "make -j4 test",
        "make -C sub all",
        "make -- all",
        "make a/b",
    ] {
        assert!(!runs_by_its_words(line), "{line}");
    }
}

#[test]
fn a_makefile_from_standard_input_runs_what_the_line_holds() {
    let link = |p: &str| p == "mf" || p == "sub/mf";
    let from_input = |line: &str| {
        let descriptor = |p: &str| {
            ["/dev/stdin", "/dev/fd/0", "/dev/fd/3", "/proc/self/fd/0"].contains(&p) || link(p)
        };
        makefile_from_input(&words(line), descriptor).is_some()
    };
    for line in [
        "make -f - x",
        "make -f- x",
        "make -pf - x",
        "make -pf-",
        "make -f /dev/stdin x",
        "make -f/dev/stdin x",
        "make -f /proc/self/fd/0 x",
        "make -f /dev/fd/3 x",
        "make --file=- x",
        "make --file - x",
        "make --makefile=- x",
        "make --fi=- x",
        "make --f=- x",
        "make --mak - x",
        "make -C /dev -f stdin x",
        "make -C /dev/fd -f ./0 x",
        "make x -f -",
        "gmake -f - x",
        // Links the host resolved to a descriptor.
        "make -f mf x",
        "make -fmf x",
        "make -f sub/mf x",
        "make --file=mf x",
    ] {
        assert!(from_input(line), "{line}");
    }
    for line in [
        "make -f build.mk test",
        "make --file=build.mk",
        "make -f stdin.mk",
        "make -C /dev/fd all",
        "make -- -",
        "make -f mf.mk x",
        "cat -f -",
    ] {
        assert!(!from_input(line), "{line}");
    }
    // getopt takes the `--` as `-f`'s value and goes on reading options.
    assert!(runs_by_its_words("make -f -- -E x:;id x"));
}

#[test]
fn npm_reads_its_command_and_initializer_after_a_double_dash() {
    for line in [
        "npm init -- vite",
        "npm init -y -- vite",
        "npm init --registry=http://127.0.0.1:4873 -- x",
        "npm -- create x",
        "npm -- init x",
        "npm -- exec create-x",
        "npm --registry=http://127.0.0.1:4873 -- exec create-x",
        "npm -- x create-x",
        "npm -- exe create-x",
        "npm init -- -y",
        "pnpm -- dlx create-x",
    ] {
        assert!(runs_by_its_words(line), "{line}");
    }
    for line in [
        "npm init",
        "npm init -y",
        "npm init -y --",
        "npm test -- --coverage",
        "npm run build -- --watch=false",
        // After `--` npm passes options on to the script, unread.
        "npm test -- --script-shell=/tmp/sh",
    ] {
        assert!(!runs_by_its_words(line), "{line}");
    }
}

#[test]
fn lookup_finds_what_a_scan_of_the_table_finds() {
    let scan = |name: &str| programs().find(|p| p.is_named(name));
    let mut names: Vec<&str> = programs()
        .flat_map(|p| std::iter::once(p.name).chain(p.aliases.iter().copied()))
        .collect();
    names.extend(["", "cmd1", "GREP", "grep ", "gre", "greps", "/bin/", "zzz"]);
    for name in names {
        for spelling in [name.to_owned(), format!("/usr/bin/{name}")] {
            let found = lookup(&spelling).map(|p| p as *const Program);
            let scanned = scan(program_name(&spelling)).map(|p| p as *const Program);
            assert_eq!(found, scanned, "`{spelling}`");
        }
    }
}

#[test]
fn program_name_is_the_part_after_the_last_slash() {
    let by_split = |word: &str| match word.rsplit_once('/') {
        Some((_, name)) if !name.is_empty() => name.to_owned(),
        _ => word.to_owned(),
    };
    for word in [
        "rm",
        "/usr/bin/rm",
        "/",
        "a/",
        "//x",
        "é/ü",
        "./x/",
        "",
        "a/b/c",
    ] {
        assert_eq!(program_name(word), by_split(word), "`{word}`");
    }
}

fn runs(line: &str) -> bool {
    effects(&words(line)).is_some_and(|e| e.runs)
}

fn writes(line: &str) -> Vec<String> {
    let w = words(line);
    let e = effects(&w).unwrap();
    e.writes
        .iter()
        .map(|t| target_text(&w, *t).unwrap().to_owned())
        .collect()
}

fn reads_below(line: &str) -> Vec<String> {
    let w = words(line);
    let e = effects(&w).unwrap();
    e.reads_below
        .iter()
        .map(|t| target_text(&w, *t).unwrap().to_owned())
        .collect()
}

#[test]
fn tar_old_letters_take_the_next_words_in_order() {
    // `f` takes `a.tar`, then `I` takes the program to run.
    assert!(!read_only("tar tvfI a.tar sh"));
    assert!(runs("tar tvfI a.tar sh"));
    assert!(runs("tar tfI a.tar sh x"));
    assert_eq!(reads("tar tvf a.tar"), ["a.tar"]);
    assert_eq!(reads("tar tfv a.tar x"), ["a.tar", "x"]);
    assert!(read_only("tar tvf a.tar"));
    assert!(!read_only("tar tf"));
}

#[test]
fn tar_remote_archives_run_a_remote_shell() {
    for line in [
        "tar -tf localhost:a.tar",
        "tar --file=host:x -t",
        "tar tf host:x",
        "tar -tf user@host:/a.tar",
        "tar -t --file host:x",
    ] {
        assert!(!read_only(line), "{line}");
        assert!(runs(line), "{line}");
    }
    for line in [
        "tar -tf ./host:x",
        "tar -tf /tmp/a:b",
        "tar --force-local -tf host:x",
        "tar -tf host:x --force-local",
    ] {
        assert!(read_only(line), "{line}");
    }
}

#[test]
fn tar_volno_file_is_written() {
    assert!(!read_only("tar -t --volno-file=F -f a.tar"));
    assert_eq!(writes("tar -t --volno-file=F -f a.tar"), ["F", "a.tar"]);
}

#[test]
fn xxd_reads_each_word_by_its_first_letter() {
    for line in [
        "xxd -ps a",
        "xxd -postscript a",
        "xxd --ps a",
        "xxd -c8 a",
        "xxd -c 8 a",
        "xxd -cols 8 a",
        "xxd -s -10 a",
        "xxd -seek 4 a",
        "xxd -l 16 -g 1 a",
        "xxd -capitalize -i a",
        "xxd -- -a",
    ] {
        assert!(read_only(line), "{line}: {:?}", effects(&words(line)));
    }
    for line in [
        "xxd -ps a .git/config",
        "xxd -cols 8 a b",
        "xxd -r a",
        "xxd -revert a",
        "xxd -zz a",
        "xxd -c",
        "xxd a -ps",
    ] {
        assert!(!read_only(line), "{line}");
    }
    assert_eq!(reads("xxd -ps a"), ["a"]);
    assert_eq!(reads("xxd -s 5 a"), ["a"]);
    assert_eq!(reads("xxd -cols 8 a"), ["a"]);
}

#[test]
fn lists_of_files_ask() {
    for line in [
        "sort --files0-from=-",
        "sort --files0-from=F",
        "du --files0-from=F",
        "wc --files0-from=F",
        "md5sum -c x.md5",
        "sha256sum -c -",
        "sha1sum --check x",
        "b2sum -c x",
        "cksum --check x",
        "tar -cf - -T names.txt",
        "date -f F",
    ] {
        assert!(!read_only(line), "{line}");
    }
    // The names may be any file.
    assert_eq!(reads_below("md5sum -c x.md5"), ["/"]);
    assert!(read_only("md5sum a b"));
}

#[test]
fn response_files_ask() {
    assert!(!read_only("strings @/etc/shadow"));
    assert!(!read_only("strings -n 4 @.gitignore"));
    assert_eq!(
        reads("strings @/etc/shadow"),
        ["/etc/shadow", "@/etc/shadow"]
    );
    assert!(read_only("strings a.bin"));
}

#[test]
fn compiler_options_ask_unless_a_family_known_safe_holds_them() {
    let asks = |line: &str| runs_by_option(&words(line)).is_some();
    // Options whose value holds more driver options, which the driver obeys.
    for line in [
        "gcc -fcompare-debug=-B/tmp/x/ -c x.c",
        "gcc -fcompare-debug=-wrapper\t/tmp/x/cc1 -c x.c",
        "gcc -fcompare-debug=-fplugin=/tmp/p.so -c x.c",
        "gcc -foffload-options=-B/tmp/x x.c",
        "gcc -foffload-options=nvptx-none=-B/tmp/x x.c",
        "gcc -foffload=nvptx-none x.c",
        "gcc -Xassembler --plugin x.c",
        "gcc -Xpreprocessor -x x.c",
        "gcc -Xlinker -plugin=/tmp/p.so x.c",
        "gcc -Wa,-x x.c",
        "gcc -Wp,-x x.c",
        "gcc -Wl,--as-needed x.c",
        "clang -Xarch_x86_64 -B/tmp/x x.c",
        "clang -Xopenmp-target=nvptx64 -B/tmp/x x.c",
        "clang -mllvm -x x.c",
        // Programs and plugins, however spelt.
        "g++ -fmodule-mapper=|/tmp/evil -fmodules-ts x.cc",
        "clang -fpass-plugin=/tmp/p.so x.c",
        "gcc -fplugin=/tmp/p.so x.c",
        "gcc -fuse-ld=/tmp/ld x.c",
        "gcc -iplugindir=/tmp/x -fplugin=p x.c",
        "clang -gcc-toolchain /tmp/x x.c",
        "clang -ccc-install-dir /tmp/x x.c",
        "avr-gcc -mmcu=../../../tmp/evil/x x.c",
        "gcc -no-canonical-prefixes x.c",
    ] {
        assert!(asks(line), "{line}");
    }
    for line in [
        "gcc -O2 -Wall -Wextra -Werror=format-security -o app main.c",
        "cc -g -DDEBUG=1 -Iinclude -c src/x.c -o build/x.o",
        "gcc -fPIC -shared -fvisibility=hidden -o libx.so x.c -lm",
        "gcc -fsanitize=address,undefined -fno-omit-frame-pointer -g3 x.c",
        "gcc -std=c11 -pedantic -march=native -mtune=native -pthread x.c",
        "gcc -E -P -dM -x c -include config.h x.c",
        "gcc -MMD -MP -MF build/x.d -c x.c",
        "gcc -fcompare-debug -c x.c",
        "gcc -flto=auto -O3 -static x.c",
        "clang -target x86_64-linux-gnu -stdlib=libc++ -fcolor-diagnostics x.cc",
        "gcc -E -o - x.c",
        "gcc --version",
    ] {
        assert!(!asks(line), "{line}");
    }
}

#[test]
fn rustc_codegen_keys_ask_unless_known_safe_in_either_spelling() {
    let asks = |line: &str| runs_by_option(&words(line)).is_some();
    for line in [
        "rustc -C link_arg=-Wl,-plugin=/tmp/p.so m.rs",
        "rustc -C link_args=-x m.rs",
        "rustc -C llvm_args=-x m.rs",
        "rustc -Clink_arg=-x m.rs",
        "rustc --codegen link_arg=-x m.rs",
        "rustc --codegen=link_arg=-x m.rs",
        "rustc -C linker-plugin-lto=/tmp/p.so m.rs",
        "rustc -C linker_plugin_lto=/tmp/p.so m.rs",
        "rustc -C dlltool=/tmp/x m.rs",
        "rustc -C linker-flavor=gcc m.rs",
        "rustc -C link-self-contained=y m.rs",
        "rustc -C ar=/tmp/ar m.rs",
        "rustc -C passes=x m.rs",
        "rustc -C m.rs",
        "rustc -Z unstable-options m.rs",
        "cargo rustc -- -C link_arg=-x",
    ] {
        assert!(asks(line), "{line}");
    }
    for line in [
        "rustc -C opt-level=3 -C debuginfo=2 -C codegen-units=1 m.rs",
        "rustc -C opt_level=3 -C target-cpu=native -C panic=abort m.rs",
        "rustc -C lto=thin -C strip=symbols -C incremental=target/inc m.rs",
        "rustc -C linker-plugin-lto=yes -C linker-plugin-lto m.rs",
        "rustc -O --edition 2021 main.rs",
    ] {
        assert!(!asks(line), "{line}");
    }
}

#[test]
fn rustc_loading_crates_or_a_toolchain_asks() {
    let asks = |line: &str| runs_by_option(&words(line)).is_some();
    for line in [
        "rustc --extern m=libm.so x.rs",
        "rustc --extern=m=libm.so x.rs",
        "rustc --extern m -L . x.rs",
        "rustc -L . x.rs",
        "rustc -Ldependency=target x.rs",
        "rustc -L crate=target x.rs",
        "rustc --sysroot /tmp/s x.rs",
        "rustc --sysroot=/tmp/s x.rs",
        "rustc --target ./evil.json x.rs",
        "rustc --target=Evil.JSON x.rs",
        "rustdoc --extern m=libm.so x.rs",
        "cargo rustc -- --extern m=libm.so",
    ] {
        assert!(asks(line), "{line}");
    }
    for line in [
        "rustc -L native=lib -l static=z x.rs",
        "rustc -Lframework=lib x.rs",
        "rustc --target x86_64-unknown-linux-gnu x.rs",
        "rustc --crate-type proc-macro --crate-name m m.rs",
    ] {
        assert!(!asks(line), "{line}");
    }
}

#[test]
fn compilers_reading_a_source_from_a_descriptor_are_found() {
    // `mf` is a link the host resolved to `/dev/stdin`.
    let is_descriptor = |p: &str| p == "/dev/stdin" || p.starts_with("/proc/self/fd/") || p == "mf";
    let source = |line: &str| source_from_input(&words(line), is_descriptor);
    for (line, word) in [
        ("gcc -E -x c -", "-"),
        ("gcc -E -", "-"),
        ("clang -E /dev/stdin", "/dev/stdin"),
        (
            "x86_64-linux-gnu-gcc-12 -E -x c /proc/self/fd/0",
            "/proc/self/fd/0",
        ),
        ("gcc -E -include - x.c", "-"),
        ("rustc -", "-"),
        ("rustc --edition 2021 /dev/stdin", "/dev/stdin"),
        ("cpp", "-"),
        ("cpp -P -I inc -D X", "-"),
        ("gcc -E -includemf x.c", "-includemf"),
        ("gcc -E -include mf x.c", "mf"),
        ("gcc -E -imacrosmf x.c", "-imacrosmf"),
        ("gcc -E -include/dev/stdin x.c", "-include/dev/stdin"),
        ("gcc -E -x c mf", "mf"),
        ("gcc @mf x.c", "@mf"),
    ] {
        assert_eq!(source(line).as_deref(), Some(word), "{line}");
    }
    for line in [
        "gcc -E -o - x.c",
        "gcc -M -MF - x.c",
        "rustc -o - x.rs",
        "cpp x.c",
        "cpp -I inc x.c out.i",
        "cpp --version",
        "gcc -c x.c",
        "gcc -E -include mf.h x.c",
        "gcc -o/dev/stdout x.c",
        "gcc -MF/dev/stdout -MD x.c",
        "cat -",
    ] {
        assert_eq!(source(line), None, "{line}");
    }
}

#[test]
fn listing_without_operands_reads_the_working_directory() {
    assert_eq!(reads("ls -laR"), ["."]);
    assert_eq!(reads("du -ah"), ["."]);
    assert_eq!(reads("tree -a"), ["."]);
    assert_eq!(reads("ls src"), ["src"]);
    assert_eq!(reads("tree -L 2 src"), ["src"]);
}

#[test]
fn archives_and_recursive_copies_read_whole_directories() {
    assert_eq!(reads_below("tar -cf - ."), ["."]);
    assert_eq!(reads_below("tar -czf - src"), ["src"]);
    assert_eq!(reads_below("tar czf x.tgz src"), ["src"]);
    assert_eq!(reads_below("tar -rf x.tar src"), ["src"]);
    assert_eq!(reads_below("cp -a . /tmp/o1"), ["."]);
    assert_eq!(reads_below("cp -r src /tmp/o1"), ["src"]);
    assert_eq!(reads_below("cp --recursive src /tmp/o1"), ["src"]);
    assert_eq!(reads_below("tar -cf - -T names.txt"), ["/", "."]);
    assert!(reads_below("cp src/a /tmp/o1").is_empty());
    assert!(reads_below("tar -tf a.tar").is_empty());
}

#[test]
fn test_variable_names_with_a_subscript_ask() {
    for line in ["test -v a[$(touch)]", "[ -v a[1] ]", "[ -R a[$(id)] ]"] {
        assert!(!read_only(line), "{line}");
    }
    for line in ["test -v x", "[ -v x ]", "[ -f a ]", "echo -v a[1]"] {
        assert!(read_only(line), "{line}");
    }
}

#[test]
fn date_strings_naming_a_time_zone_ask() {
    for line in [
        "date -d TZ=\"/etc/shadow\"",
        "date --date=tz=\"x\"",
        "tar -t -N TZ=\"x\" -f a.tar",
        "tar -t --newer-mtime=TZ=\"x\" -f a.tar",
    ] {
        assert!(!read_only(line), "{line}");
    }
    assert!(read_only("date -d now"));
    assert!(read_only("date -d 2024-01-01"));
}

#[test]
fn programs_named_with_a_directory_are_unknown() {
    for line in [
        "./cat x",
        "tools/ls",
        "../ls",
        "/tmp/evil/cat x",
        "node_modules/.bin/ls",
        "/usr/bin/../../tmp/ls",
        "~/bin/ls",
    ] {
        assert!(!read_only(line), "{line}");
    }
    for line in ["cat x", "/bin/ls", "/usr/bin/cat x", "/usr/local/bin/rg x"] {
        assert!(read_only(line), "{line}");
    }
    // Still the program of that name for deny rules on what it reads.
    assert_eq!(reads("./cat .env"), [".env"]);
}

#[test]
fn find_lists_and_dates_ask() {
    assert!(!read_only("find -files0-from names0"));
    assert!(!read_only("find -files0-from -"));
    assert!(!read_only("find . -newermt TZ=\"/etc/shadow\""));
    assert!(read_only("find . -newermt 2024-01-01"));
    assert_eq!(reads("find . -newer .env"), [".", ".env"]);
}

#[test]
fn date_reads_only_a_format() {
    for line in ["date", "date +%s", "date -u +%F", "date -d yesterday +%F"] {
        assert!(read_only(line), "{line}");
    }
    // `date MMDDhhmm` sets the clock.
    for line in ["date 01010000", "date 0101", "date +%s +%F"] {
        assert!(!read_only(line), "{line}");
    }
}

#[test]
fn git_config_reads_one_key() {
    for line in [
        "git config user.name",
        "git config --get user.name",
        "git config get user.name",
        "git config get --all user.name",
        "git config --local --get core.bare",
        "git config -f sub/x.cfg --get a.b",
        "git config -f sub/x.cfg --get remote.origin.url",
    ] {
        assert!(read_only(line), "{line}: {:?}", effects(&words(line)));
    }
    // git 2.46's verbs, and scopes outside the repository.
    for line in [
        "git config list",
        "git config list --global --show-origin",
        "git config edit",
        "git config edit --global",
        "git config --global edit",
        "git config set a.b c",
        "git config unset a.b",
        "git config rename-section a b",
        "git config remove-section a",
        "git config get a.b c",
        "git config --global --get user.name",
        "git config --system a.b",
        "git config --blob HEAD:x a.b",
        "git config --includes a.b",
    ] {
        assert!(!read_only(line), "{line}");
    }
    assert_eq!(reads("git config -f sub/x.cfg a.b"), ["sub/x.cfg"]);
    // Every configuration file, the home directory's among them, and what they include.
    let unnamed = |line: &str| effects(&words(line)).unwrap().reads_unnamed;
    assert!(unnamed("git config user.name"));
    assert!(unnamed("git config --local --get user.name"));
    assert!(!unnamed("git config -f sub/x.cfg a.b"));
    // Keys whose values may be secrets.
    for line in [
        "git config sendemail.smtpPass",
        "git config --get-all http.https://github.com/.extraheader",
        "git config --show-origin remote.origin.url",
        "git config get credential.helper",
        "git config --local github.token",
        // A pattern, not a key: every name it matches.
        "git config get --all --regexp 'branch.|.|.merge'",
        "git config get --regexp branch.main.merge",
        "git config get --all --regex branch.x.merge",
    ] {
        assert!(!read_only(line), "{line}");
    }
    assert!(read_only("git config --show-origin User.Name"));
    assert!(read_only("git config branch.main.remote"));
}

#[test]
fn what_runs_a_program_or_reads_any_file_is_never_read_only() {
    for line in [
        // `man` for the subcommand.
        "git --help log",
        "git -h log",
        // The names compared come from the archive; at a volume's end `!` starts a shell.
        "tar -dvf probe.tar",
        "tar --compare -f probe.tar",
        "tar -tMf notes.tar",
        // A Python program: its site directories' `.pth` files run.
        "pip --version",
        "pip3 --version",
        // A project file chooses what runs (rustup's `rust-toolchain.toml`, pyenv's
        // `.python-version`), and a link there is printed.
        "cargo --version",
        "rustc -V",
        "python3 --version",
        "python -V",
    ] {
        assert!(!read_only(line), "{line}: {:?}", effects(&words(line)));
    }
    assert!(read_only("gcc --version"));
}

#[test]
fn git_signatures_run_gpg() {
    for line in [
        "git log --show-signature",
        "git show --show-signature HEAD",
        "git log --format=%G?",
        "git log --pretty=format:%h%x20%GS",
        "git log --format=%GK%GT",
        "git shortlog --format=%GG",
        "git show --pretty=tformat:%GF",
        "git log --format=%+GS",
        "git log --format=%-GK",
        "git log --pretty=format:%-G?",
        "git stash list --format=%+G?",
        "git shortlog --group=format:%GS",
    ] {
        let e = effects(&words(line)).unwrap();
        assert!(e.runs && e.not_read_only.is_some(), "{line}: {e:?}");
    }
    for line in [
        "git log --format=%h%x20%s",
        "git log --pretty=oneline",
        "git log --pretty",
        "git log --format=%%GS",
        "git log --format=%+s%x47",
        "git shortlog --group=author",
    ] {
        assert!(read_only(line), "{line}: {:?}", effects(&words(line)));
    }
}

#[test]
fn git_reads_files_named_in_option_values() {
    assert_eq!(reads("git log -L1,1:.env"), [".env"]);
    assert_eq!(reads("git log -L :main:src/x.rs"), ["src/x.rs"]);
    assert!(!read_only("git log -L5"));
    assert_eq!(
        reads("git rev-parse --resolve-git-dir /etc/passwd"),
        ["/etc/passwd"]
    );
}

#[test]
fn git_pathspecs_with_globs_or_magic_are_not_names() {
    for line in ["git diff -- .e*", "git diff -- ?env", "git log -- *.rs"] {
        assert!(read_only(line), "{line}");
        assert!(reads(line).contains(&".".to_owned()), "{line}");
    }
    for line in [
        "git diff -- :!a.txt",
        "git diff -- :(exclude)a.txt",
        "git diff -- :(icase).ENV",
        "git diff -- :(top).env",
        "git show :.env",
        "git grep foo -- :/",
    ] {
        assert!(!read_only(line), "{line}");
        // Magic names files from the repository's top, which may be above the working
        // directory: any file.
        assert!(reads(line).contains(&"/".to_owned()), "{line}");
    }
}

#[test]
fn git_cat_file_reads_any_object() {
    for line in [
        "git cat-file --batch",
        "git cat-file --batch-check",
        "git cat-file --batch-command",
        "git cat-file --batch-all-objects --batch-check",
    ] {
        assert!(!read_only(line), "{line}");
        assert!(reads(line).contains(&".".to_owned()), "{line}");
    }
    // An object id may be any file's blob: read as the whole working tree.
    assert!(read_only("git cat-file -p e0be66a"));
    assert_eq!(reads("git cat-file -p e0be66a"), ["e0be66a", "."]);
}

#[test]
fn git_reads_below_the_work_tree_and_git_dir_it_is_given() {
    for (line, dir) in [
        ("git --work-tree=secrets diff", "secrets"),
        ("git --work-tree secrets status", "secrets"),
        ("git --work-tree=/p/secrets diff --stat", "/p/secrets"),
        ("git --git-dir=other/.git log -p", "other/.git"),
    ] {
        assert!(!read_only(line), "{line}");
        assert!(reads_below(line).contains(&dir.to_owned()), "{line}");
    }
}

#[test]
fn git_fast_export_reads_the_whole_tree() {
    for line in ["git fast-export --all", "git fast-export HEAD"] {
        assert!(!read_only(line), "{line}");
        assert!(reads_below(line).contains(&".".to_owned()), "{line}");
    }
}

#[test]
fn recursive_reads_that_follow_links_are_not_read_only() {
    for line in [
        "diff -r a b",
        "diff --recursive a b",
        "find -L . -name x",
        "find -H . -name x",
        "find . -follow -name x",
        "tree -l",
        "grep -R foo .",
        "rg -L foo",
    ] {
        assert!(!read_only(line), "{line}");
    }
    assert!(read_only("diff -r --no-dereference a b"));
    assert!(read_only("find -P . -name x"));
    assert!(read_only("tree -a src"));
}

#[test]
fn file_decompressing_runs_programs() {
    // `file -z` hands compressed files to `gzip`, `zstd`, `uncompress`, ... from `$PATH`.
    for line in [
        "file -z a.gz",
        "file -Z a.gz",
        "file --uncompress a.gz",
        "file --uncompress-noreport a.gz",
        "file -bz a.gz",
        "file --uncompress-n a.gz",
    ] {
        let e = effects(&words(line)).unwrap();
        assert!(e.runs && e.not_read_only.is_some(), "{line}: {e:?}");
    }
    // An ambiguous abbreviation is not known.
    assert!(!read_only("file --uncomp a.gz"));
    assert!(read_only("file -b a.gz"));
}

#[test]
fn git_ref_formats_with_signatures_run_gpg() {
    for line in [
        "git branch --format=%(signature)",
        "git branch --format %(refname)%(signature:grade)",
        "git branch --sort=signature:grade",
        "git branch --sort -signature",
        "git tag -l --format=%(signature:signer)",
        "git tag --sort=version:signature",
        "git branch --format=%(newfield)",
    ] {
        let e = effects(&words(line)).unwrap();
        assert!(e.runs && e.not_read_only.is_some(), "{line}: {e:?}");
    }
    for line in [
        "git branch --format=%(refname:short)",
        "git branch --sort=-committerdate",
        "git tag -l --sort=version:refname --format=%(refname:strip=2)",
    ] {
        assert!(read_only(line), "{line}: {:?}", effects(&words(line)));
    }
}

#[test]
fn sed_scripts_that_write_read_or_run_cannot_be_judged() {
    let judged = |argv: &[&str]| {
        let argv: Vec<String> = argv.iter().map(|w| (*w).to_owned()).collect();
        super::sed_cannot_be_judged(&argv).is_none()
    };
    for argv in [
        &["sed", "-n", "w .git/hooks/pre-commit", "x"][..],
        &["sed", "s/a/b/w out", "x"],
        &["sed", "-n", "W .bashrc", "x"],
        &["sed", "1e touch x", "f"],
        &["sed", "s/.*/id/e", "f"],
        &["sed", "-n", "-e", "p", "-e", "r /etc/passwd", "f"],
        &["sed", "-ne", "w x", "f"],
        &["sed", "--expression=w x", "f"],
        &["sed", "--exp", "w x", "f"],
        &["sed", "-f", "s.sed", "f"],
        &["sed", "--file=s.sed", "f"],
    ] {
        assert!(!judged(argv), "{argv:?}");
    }
    for argv in [
        &["sed", "-n", "1,20p", "f"][..],
        &["sed", "s/foo/bar/g", "f"],
        &["sed", "-i", "/x/a foo", "f"],
        &["sed", "-i.bak", "s/a/b/", "f"],
        &["sed", "--sandbox", "w x", "f"],
        &["sed", "-n", "$p", "f"],
    ] {
        assert!(judged(argv), "{argv:?}");
    }
}

fn unjudged(line: &str) -> bool {
    effects(&words(line)).is_some_and(|e| e.unjudged.is_some())
}

#[test]
fn options_the_table_cannot_read_are_unjudged() {
    // git takes any unique prefix of a long option; the table reads only full names, so a
    // prefix of `--ext-diff` (runs a program) or `--output` (writes) is not judged.
    for line in [
        "git log --ext-dif -p",
        "git log --outp=x",
        "git diff --ext-di",
        "git log --onel",
        "git -C . log --textcon -p",
        "ls --no-such-option",
        "grep -Y x f",
        "find . -no-such-primary",
        "xxd -Z f",
    ] {
        assert!(unjudged(line), "{line}");
        assert!(!read_only(line), "{line}");
    }
    for line in [
        "git log --oneline -5",
        "git log --ext-diff",
        "ls -la",
        "grep -rn x .",
        "sort --outp=x f",
        // An entry that knows only `--version` does not judge the rest of the program.
        "cargo build --release",
        "make -j4",
        // An unknown subcommand is not an option.
        "git clone https://example.com/r",
    ] {
        assert!(!unjudged(line), "{line}");
    }
}

#[test]
fn tree_letters_take_the_next_words_in_order() {
    // tree 2.1: `-Lo 1 .git/config` is `-L 1 -o .git/config`, which writes the listing there.
    assert_eq!(writes("tree -Lo 1 .git/config d"), [".git/config"]);
    assert_eq!(writes("tree -aLo 1 x d"), ["x"]);
    assert_eq!(writes("tree -Po '*.rs' out d"), ["out"]);
    assert!(!read_only("tree -Lo 1 out d"));
    assert!(read_only("tree -L 1 d"));
    assert!(read_only("tree -aL 2 --dirsfirst"));
    // A value is never attached: `-L1` takes the next word as the level.
    assert!(!read_only("tree -L1 d"));
    // Long options only as spelled in full.
    assert!(read_only("tree --filelimit 3 d"));
    assert!(!read_only("tree --fileli 3 d"));
}

#[test]
fn diff_reads_inside_directory_operands() {
    // `diff -N . src` compares every file directly inside both, following links there.
    assert_eq!(reads_below("diff -N . src"), [".", "src"]);
    assert!(!read_only("diff a.rs b.rs"));
    assert!(!read_only("diff -r a b"));
    assert!(read_only("diff --no-dereference -u a.rs b.rs"));
    assert!(read_only("diff -r --no-dereference a b"));
}

#[test]
fn file_reads_the_names_in_a_list() {
    assert!(!read_only("file -f list.txt"));
    assert!(!read_only("file --files-from=list.txt"));
    assert!(read_only("file README.md"));
}

#[test]
fn git_subcommands_that_run_programs_are_runners() {
    for line in [
        "git rebase -x id HEAD~1",
        "git rebase --exec=id HEAD~1",
        "git rebase -Sx id HEAD~1",
        "git push --receive-pack=id",
        "git push --exec=id origin",
        "git fetch --upload-pack=id origin",
        "git pull --upload-pack=x",
        "git ls-remote --upload-pack=x",
        "git clone -u x https://h/r",
        "git clone --upload-pack=x https://h/r",
        "git clone --template=/tmp/t https://h/r",
        "git init --template=/tmp/t x",
        "git clone -c core.fsmonitor=id https://h/r",
        "git clone --config core.fsmonitor=id https://h/r",
        "git archive --remote=x --exec=id",
        "git bisect run id",
        "git bisect visualize",
        "git difftool -x id",
        "git difftool",
        "git mergetool",
        "git submodule foreach id",
        "git submodule --quiet foreach id",
        "git filter-branch --tree-filter id",
        "git config -e",
        "git config --edit --global",
        "git config edit",
        "git clone ext::sh x",
        "git clone 'evil::x' d",
        "git push evil://h/r main",
        "git fetch foo::bar",
        "git ls-remote bar::baz",
        "git pull x::y main",
        "git submodule add -b main foo::x sub",
    ] {
        assert!(runs(line), "{line}");
        assert!(!read_only(line), "{line}");
    }
}

#[test]
fn git_subcommands_that_change_things_are_not_read_only() {
    // Not read-only, but an allow rule on them covers them: every option is known and
    // none runs a program.
    for line in [
        "git push -u origin feat",
        "git push --force-with-lease origin feat",
        "git rebase main",
        "git rebase --continue",
        "git fetch --all --prune",
        "git pull --rebase origin main",
        "git ls-remote origin",
        "git clone https://h/r sub",
        "git clone --depth 1 -b main https://h/r",
        "git init sub",
        "git archive -o out.tar HEAD",
        "git bisect start",
        "git bisect good HEAD~3",
        "git submodule update --init",
        "git worktree add ../x",
        "git worktree add -b feat ../x main",
        "git worktree remove ../x",
        "git bundle create out.bundle --all",
        "git config user.name x",
        "git config set user.email a@b",
        "git config --unset user.name",
        "git config --global pull.rebase true",
        "git config branch.main.remote origin",
    ] {
        assert!(!read_only(line), "{line}");
        assert!(!runs(line), "{line}");
        assert!(!unjudged(line), "{line}");
    }
    assert!(read_only("git worktree list --porcelain"));
}

#[test]
fn git_config_setting_a_key_git_may_run_is_unjudged() {
    for line in [
        "git config core.pager x",
        "git config set core.fsmonitor id",
        "git config --global core.pager id",
        "git config core.editor vim",
        "git config commit.gpgSign true",
        "git config alias.x !id",
        "git config --add core.hooksPath x",
        "git config --unset core.pager",
        "git config --replace-all diff.x.command id",
        "git config --rename-section a core",
        "git config rename-section a core",
        "git config remove-section safe",
        "git config set",
    ] {
        assert!(unjudged(line) || runs(line), "{line}");
        assert!(!read_only(line), "{line}");
    }
    // Looking a key up stays as it was.
    assert!(read_only("git config core.pager"));
    assert!(read_only("git config user.name"));
}

#[test]
fn abbreviated_options_of_changers_are_unjudged() {
    for line in [
        "git rebase --exe=id HEAD~1",
        "git push --receive=id",
        "git clone --templ=/tmp/t u",
        "git submodule --quie foreach id",
    ] {
        assert!(unjudged(line) || runs(line), "{line}");
    }
}

#[test]
fn git_paths_are_read_below() {
    // `git diff A B` of a path outside the work tree is `git diff --no-index`: it reads
    // both directories whole.
    assert_eq!(
        reads_below("git diff /home/u/.ssh src"),
        ["/home/u/.ssh", "src"]
    );
    assert_eq!(reads_below("git log -- src"), ["src"]);
    // A clone of a local repository reads it whole.
    assert_eq!(
        reads_below("git clone /home/u/secret x"),
        ["/home/u/secret"]
    );
    assert_eq!(reads_below("git clone ../r"), ["../r"]);
    assert_eq!(reads_below("git clone file:///home/u/r x"), ["/home/u/r"]);
    assert!(reads_below("git clone https://h/r x").is_empty());
    assert!(reads_below("git clone git@h:o/r x").is_empty());
    assert!(read_only("git diff HEAD~1"));
    // Read in every directory it visits.
    assert!(!read_only(
        "git ls-files --exclude-per-directory=../home/pat -o -i"
    ));
    assert!(read_only("git ls-files -X .gitignore -o"));
    assert_eq!(reads("git ls-files -X .gitignore -o"), [".gitignore"]);
}

#[test]
fn git_remote_urls_are_read_from_the_configuration_files() {
    assert!(read_only("git remote -v"));
    let e = effects(&words("git remote -v")).unwrap();
    assert!(e.reads.contains(&Target::Fixed(".git/config")));
    assert!(e.reads.contains(&Target::Fixed("~/.gitconfig")));
    assert!(effects(&words("git remote")).unwrap().reads.is_empty());
    assert!(!read_only("git remote get-url origin"));
    assert!(!read_only("git remote show origin"));
}

#[test]
fn git_optional_values_are_attached_only() {
    // `-U`, `--unified`, `--min-parents` and `--max-parents` take a value only when it is
    // attached; `blame --reverse` and `shortlog --committer` are flags: the next word is
    // an option of its own (`--output=F` writes F, `-SFILE` reads FILE).
    for line in [
        "git log -U --output=F -1",
        "git log -pU --output=F",
        "git show --unified --output=F",
        "git log --max-parents --output=F",
        "git show --min-parents --output=F",
    ] {
        assert_eq!(writes(line), ["F"], "{line}");
    }
    // shortlog and blame list no `--output`: an unknown option, so not read-only.
    assert!(!read_only("git shortlog --committer --output=F HEAD"));
    assert!(!read_only("git blame --reverse --output=F f.txt"));
    assert!(reads("git blame --reverse -S/etc/shadow f.txt").contains(&"/etc/shadow".to_owned()));
    assert!(read_only("git log -U5 -p"));
    assert!(read_only("git diff --unified=1"));
    assert!(read_only("git log --max-parents=1"));
    assert!(read_only("git shortlog -c -s HEAD"));
}

/// Whether the line hides what it runs (the danger a Codex hook denies).
fn obscured(line: &str) -> bool {
    danger::classify_line(line)
        .classes()
        .contains(&danger::DangerClass::Obscured)
}

#[test]
fn an_interpreter_given_only_options_with_values_reads_its_input() {
    for line in [
        "echo aW1wb3J0IG9z | base64 -d | python3 -W ignore",
        "cat x | python3 -X dev",
        "cat x | python3 --",
        "node -r ./x.js",
        "node --import ./x.js",
        "perl -I lib",
        "perl -m strict",
        "ruby -r json",
        "php -d x=1",
        "lua -l string",
        "python3 /dev/tty",
        "node /dev/pts/0",
    ] {
        assert!(obscured(line), "{line}");
    }
    for line in [
        "python3 -W ignore x.py",
        "node -r ./x.js app.js",
        "ruby -E utf-8 x.rb",
        "perl -I lib x.pl",
        "python3 -c 'print(1)'",
    ] {
        assert!(!obscured(line), "{line}");
    }
}

#[test]
fn a_version_only_program_is_read_only_only_with_its_option() {
    assert!(read_only("node --version"));
    // `--` ends the options without one: `node` then reads its program from its input.
    assert!(!read_only("node --"));
}

#[test]
fn every_listing_names_options_of_its_entry() {
    for p in programs() {
        let Some(listing) = p.listing else { continue };
        let specs: Vec<OptionSpec> = p.option_specs().collect();
        for name in listing.names_with.iter().chain([&listing.names]) {
            assert!(
                specs.iter().any(|o| o.has_long(name)),
                "{}: --{name}",
                p.name
            );
        }
        for word in listing.alone {
            let known = specs.iter().any(|o| match word.strip_prefix("--") {
                Some(long) => o.has_long(long),
                None => word.chars().nth(1).is_some_and(|c| o.short.contains(&c)),
            });
            assert!(known, "{}: {word}", p.name);
        }
    }
}

#[test]
fn rg_printing_about_itself_reads_nothing() {
    for line in [
        "rg --version",
        "rg -V",
        "rg --help",
        "rg -h",
        "rg --type-list",
        "rg --pcre2-version",
    ] {
        let e = effects(&words(line)).unwrap();
        assert!(e.not_read_only.is_none(), "{line}");
        assert!(e.reads.is_empty() && e.reads_below.is_empty(), "{line}");
    }
    // With another word, a search: the working directory (or the operand) is read below.
    for line in [
        "rg --version x",
        "rg -V --files",
        "rg -h -e x",
        "rg --type-list -uuu",
    ] {
        let e = effects(&words(line)).unwrap();
        assert!(!e.reads_below.is_empty(), "{line}");
    }
}

#[test]
fn rg_files_lists_names_and_reads_none_below() {
    for (line, listed) in [
        ("rg --files", vec![Target::WorkingDirectory]),
        (
            "rg --files src tests",
            vec![Target::whole(2), Target::whole(3)],
        ),
        ("rg --hidden -g *.ts --files src", vec![Target::whole(5)]),
        (
            "rg -uuu --files --sort path -t rust",
            vec![Target::WorkingDirectory],
        ),
    ] {
        let e = effects(&words(line)).unwrap();
        assert!(e.not_read_only.is_none(), "{line}");
        assert!(e.reads_below.is_empty(), "{line}");
        assert_eq!(e.reads, listed, "{line}");
    }
    // The last of `--files`, `-l`, `--json`, ... wins: with a search mode, an option that
    // reads or runs, or links followed, it is a search.
    for line in [
        "rg --files -l x",
        "rg -l x --files",
        "rg --files -c x",
        "rg --files --json",
        "rg --files --count-matches",
        "rg --files --files-without-match",
        "rg --files -e x",
        "rg --files --pre ./x",
        "rg --files --pre-glob *",
        "rg --files --ignore-file x",
        "rg --files -f pats",
        "rg --files -z",
        "rg --files -L",
    ] {
        let e = effects(&words(line)).unwrap();
        assert!(!e.reads_below.is_empty(), "{line}");
    }
}

#[test]
fn git_reflog_shows_with_logs_options_and_its_other_forms_change() {
    for line in [
        "git reflog",
        "git reflog -n 10",
        "git reflog --date=iso -p",
        "git reflog show --oneline HEAD",
        "git reflog list",
        "git reflog exists HEAD",
        // git takes only the first word for a subcommand: here `expire` is a revision.
        "git reflog -n 5 expire",
    ] {
        assert!(read_only(line), "{line}");
    }
    for line in [
        "git reflog expire --expire=now --all",
        "git reflog delete HEAD@{1}",
        "git reflog drop",
        // A first word that is no option must name a subcommand: a later git may add one.
        "git reflog HEAD",
        "git reflog frobnicate",
        "git reflog -p --output=x",
        "git reflog --ext-diff -p",
        "git reflog --pretty=%GS",
    ] {
        assert!(!read_only(line), "{line}");
    }
}

#[test]
fn git_rev_list_is_read_only_with_the_revision_walks_options() {
    for line in [
        "git rev-list --count HEAD",
        "git rev-list --objects --all --header",
        "git rev-list --max-age=1 --reverse main..HEAD -- src",
    ] {
        assert!(read_only(line), "{line}");
    }
    for line in [
        "git rev-list --output=x HEAD",
        "git rev-list --pretty=%GS HEAD",
        "git rev-list --show-signature HEAD",
        "git rev-list --missing=print HEAD",
        "git rev-list --filter=blob:none HEAD",
        "git rev-list --stdin",
    ] {
        assert!(!read_only(line), "{line}");
    }
}

#[test]
fn git_tag_and_branch_take_patterns_only_when_listing() {
    for line in [
        "git tag -l v* --sort=-v:refname",
        "git tag --list v1.*",
        "git branch --list feat*",
        "git branch -l --sort=version:refname",
    ] {
        assert!(read_only(line), "{line}");
    }
    for line in [
        "git tag v2",
        "git tag -n v2",
        "git tag --sort=-v:refname v2",
        "git tag -l -d v1",
        "git branch feat",
        "git branch -l feat -m x",
        "git tag -l v* --sort=signature",
    ] {
        assert!(!read_only(line), "{line}");
    }
}

#[test]
fn name_globs_narrow_a_recursive_search() {
    let filter = |line: &str| effects(&words(line)).unwrap().search_filter;
    let globs = |g: &[&str]| Some(g.iter().map(|g| (*g).to_owned()).collect::<Vec<_>>());
    assert_eq!(filter("grep -r --include=*.ts x ."), globs(&["**/*.ts"]));
    assert_eq!(
        filter("grep -r --include *.ts --exclude=a.ts --include=*.md x"),
        globs(&["**/*.ts", "**/*.md"])
    );
    assert_eq!(
        filter("rg -g *.{ts,tsx} -g !*.d.ts x"),
        globs(&["**/*.ts", "**/*.tsx"])
    );
    assert_eq!(filter("rg --iglob *.PY x src"), globs(&["**/*.PY"]));
    for line in [
        "grep -r x .",
        "grep -r --exclude=a --include=*.ts x .",
        "grep -r --exclude-from=f --include=*.ts x .",
        "grep -r --include=*.{ts,md} x .",
        "grep -r --include=!*.ts x .",
        "grep -r --include=src/*.ts x .",
        "grep -r --include=*.[tj]s x .",
        "grep -r --include= x .",
        "rg -g !*.md x",
        "rg -g src/*.ts x",
        "rg -g *.ts -g \\*.md x",
        // Not recursive: nothing below to narrow.
        "grep --include=*.ts x a.ts",
    ] {
        assert_eq!(filter(line), None, "{line}");
    }
}

#[test]
fn git_pathspecs_after_dash_dash_narrow_what_is_read() {
    let e = |line: &str| effects(&words(line)).unwrap();
    // Literal pathspecs with no revision: only below them.
    assert_eq!(e("git grep -n TODO -- src").reads_below, [Target::whole(5)]);
    assert_eq!(e("git grep -- TODO src").reads_below, [Target::whole(4)]);
    // A revision, or a word before `--` that may be one, is the whole tree.
    for line in [
        "git grep -n TODO src",
        "git grep -n TODO HEAD -- src",
        "git grep -- TODO",
    ] {
        assert!(
            e(line).reads_below.contains(&Target::WorkingDirectory),
            "{line}"
        );
    }
    // `*SUFFIX` pathspecs after `--` and nothing else: the working tree, through them.
    let globs = |g: &[&str]| Some(g.iter().map(|g| (*g).to_owned()).collect::<Vec<_>>());
    assert_eq!(e("git diff -- *.rs").search_filter, globs(&["**/*.rs"]));
    assert_eq!(
        e("git grep x -- *.ts *.md").search_filter,
        globs(&["**/*.ts", "**/*.md"])
    );
    assert_eq!(e("git log -p -- *.rs").search_filter, globs(&["**/*.rs"]));
    for line in [
        "git diff HEAD -- *.rs",
        "git diff *.rs",
        "git diff -- *.rs src",
        "git diff -- src/*.rs",
        "git diff -- *env*",
        "git diff -- *",
        "git diff -- *:x",
        "git show 50b37a2 -- *.rs",
        "git cat-file -p -- *.rs",
        "git add -- *.rs",
    ] {
        assert_eq!(e(line).search_filter, None, "{line}");
    }
}

#[test]
fn npm_is_read_only_only_with_its_version_option_alone() {
    for line in ["npm -v", "npm --version"] {
        assert!(read_only(line), "{line}");
    }
    // `--help` and every command write a debug log where a project `.npmrc` says.
    for line in [
        "npm --help",
        "npm -h",
        "npm help",
        "npm ls",
        "npm root",
        "npm prefix",
        "npm -v ls",
        "npm --version --logs-dir=x",
        "npm -version",
        "npm ---version",
        "npm --versio",
        "npm --",
        "npm",
    ] {
        assert!(!read_only(line), "{line}");
    }
}

#[test]
fn git_subcommands_the_table_does_not_know_are_unjudged() {
    // Plumbing that runs a program given as an option or operand: an allow rule on `git`
    // covers none of it unless it names the command exactly.
    for line in [
        "git fetch-pack --upload-pack=id .",
        "git send-pack --receive-pack=id . main",
        "git daemon --inetd --access-hook=id",
        "git merge-index ./run.sh -a",
        "git instaweb --httpd=id",
        "git web--browse --browser=id http://h",
        "git remote-ext x 'sh -c id'",
        "git shell -c id",
        "git upload-pack .",
        "git http-backend",
        "git stash frobnicate",
        "git bisect frobnicate",
    ] {
        assert!(unjudged(line), "{line}");
        assert!(!read_only(line), "{line}");
    }
    // The subcommands agents use are in the table: judged by their options.
    for line in [
        "git add src/a.rs",
        "git commit -m x",
        "git checkout -b feature",
        "git switch main",
        "git restore --staged a",
        "git reset --hard HEAD~1",
        "git merge --no-ff feature",
        "git cherry-pick -x abc123",
        "git revert --no-edit HEAD",
        "git rm --cached a",
        "git mv a b",
        "git clean -fd",
        "git stash push -m wip",
        "git stash pop",
        "git stash drop",
        "git maintenance register",
        "git update-index --refresh",
    ] {
        assert!(!unjudged(line), "{line}");
        assert!(!runs(line), "{line}");
    }
    assert!(!unjudged("git gc --auto"));
    for line in [
        "git merge-base main HEAD",
        "git for-each-ref --format=%(refname:short) refs/heads",
        "git show-ref --verify refs/heads/main",
    ] {
        assert!(read_only(line), "{line}");
    }
    assert!(runs("git for-each-ref --format=%(signature)"));
}

#[test]
fn git_subcommands_that_run_git_or_a_scheduler_are_runners() {
    for line in [
        "git for-each-repo --config=maintenance.repo -- -c alias.x=!id x",
        "git for-each-repo --config=k -- -c core.fsmonitor=id status",
        "git maintenance start",
        "git maintenance start --scheduler=crontab",
        "git commit -S -m x",
        "git merge -s ours x",
        "git merge --verify-signatures x",
        "git cherry-pick --strategy=x y",
    ] {
        assert!(runs(line), "{line}");
    }
}

#[test]
fn git_pathspecs_stored_in_the_object_store_are_read_below() {
    // Each pathspec is read with everything below it; with no pathspec, `add -A` and
    // `stash push -u`/`-a` read the whole working tree; a glob or magic reads more than it
    // names.
    assert_eq!(reads_below("git add -f secrets"), ["secrets"]);
    assert_eq!(reads_below("git add -f ."), ["."]);
    assert_eq!(reads_below("git add src/a.rs"), ["src/a.rs"]);
    assert_eq!(
        reads_below("git commit -m x --include secrets"),
        ["secrets"]
    );
    assert_eq!(reads_below("git commit -m x -- secrets"), ["secrets"]);
    assert_eq!(reads_below("git update-index --add .env"), [".env"]);
    assert_eq!(reads_below("git stash push -- secrets"), ["secrets"]);
    for line in [
        "git add -A",
        "git add --all",
        "git add --force --all",
        "git add -fA",
        "git add -f .e*",
        "git stash push -a",
        "git stash push --include-untracked",
    ] {
        assert!(reads_below(line).contains(&".".to_owned()), "{line}");
    }
    for line in [
        "git add -f :/",
        "git add -f --pathspec-from-file=-",
        "git update-index --add --stdin",
        "git update-index --again",
    ] {
        let e = effects(&words(line)).unwrap();
        assert!(e.reads_below.contains(&Target::Anywhere), "{line}");
    }
    // Staging what tracked files hold now (`add -u`, `commit -a`) brings no file into git
    // that it does not already have.
    for line in ["git add -u", "git commit -a -m x", "git commit -am x"] {
        assert!(!reads_below(line).contains(&".".to_owned()), "{line}");
    }
    // Committing the index, or stashing tracked changes, reads no file by name.
    assert!(reads_below("git commit -m x").is_empty());
    assert!(reads_below("git stash push -m wip").is_empty());
}

#[test]
fn git_objects_named_by_id_read_the_whole_tree() {
    // An object id (or a tree) names any file of any revision, as `git cat-file -p ID`.
    for line in [
        "git show 50b37a2",
        "git show 50b37a2^{blob}",
        "git show HEAD^{tree}",
        "git diff 45b983b 50b37a2",
        "git log -p 50b37a2",
        "git stash show -p 0123abcd",
    ] {
        assert!(reads_below(line).contains(&".".to_owned()), "{line}");
    }
    for line in [
        "git show HEAD",
        "git diff main feature",
        "git log -3",
        "git show v1.2",
        // Commands that only name objects, not print them.
        "git rev-parse 50b37a2",
    ] {
        assert!(!reads_below(line).contains(&".".to_owned()), "{line}");
    }
}
