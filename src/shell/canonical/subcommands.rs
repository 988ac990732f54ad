//! Programs whose first operand is a subcommand, and where it starts: the one reading the
//! danger classifier and deny and ask rules share (`npm --registry URL publish` is `npm
//! publish` to both).

/// Programs whose first operand is a subcommand, with their options before it that take the
/// next word as their value (`npm --registry URL publish`, `aws --region r s3 rm`): the
/// subcommand is the first operand that is not such a value. git's are [`super::GIT_GLOBAL_WITH_VALUE`],
/// cargo's the table of what cargo writes.
const GLOBAL_OPTIONS_WITH_VALUE: &[(&[&str], &[&str])] = &[
    (
        &["npm"],
        &[
            "--registry",
            "--otp",
            "-w",
            "--workspace",
            "--prefix",
            "-C",
            "--userconfig",
            "--globalconfig",
            "--loglevel",
            "--cache",
            "--tag",
            "--access",
            "--scope",
            "--auth-type",
            "-L",
            "--location",
            "--cafile",
            "--proxy",
            "--https-proxy",
        ],
    ),
    (&["pnpm"], &["-C", "--dir", "--filter", "-F", "--loglevel"]),
    (
        &["yarn"],
        &["--cwd", "--cache-folder", "--modules-folder", "--mutex"],
    ),
    (&["bun"], &["--cwd", "-c", "--config"]),
    (
        &["pip", "pip3"],
        &[
            "--proxy",
            "--log",
            "--log-file",
            "--cache-dir",
            "-i",
            "--index-url",
            "--extra-index-url",
            "--timeout",
            "--retries",
            "--cert",
            "--client-cert",
            "--trusted-host",
            "--python",
            "--exists-action",
        ],
    ),
    (&["cargo"], crate::shell::CARGO_GLOBAL_VALUES),
    (&["gh"], &["-R", "--repo"]),
    (
        &["aws"],
        &[
            "--region",
            "--profile",
            "--endpoint-url",
            "--output",
            "--query",
            "--ca-bundle",
            "--color",
            "--cli-read-timeout",
            "--cli-connect-timeout",
        ],
    ),
    (
        &["systemctl"],
        &[
            "-H",
            "--host",
            "-M",
            "--machine",
            "-t",
            "--type",
            "-s",
            "--signal",
            "-p",
            "--property",
            "--state",
            "--job-mode",
            "--kill-whom",
            "--root",
        ],
    ),
    (
        &["loginctl"],
        &[
            "-H",
            "--host",
            "-M",
            "--machine",
            "-p",
            "--property",
            "-s",
            "--signal",
        ],
    ),
    (
        &["apt", "apt-get", "aptitude"],
        &[
            "-o",
            "--option",
            "-c",
            "--config-file",
            "-t",
            "--target-release",
        ],
    ),
    (
        &["uv"],
        &[
            "--directory",
            "--project",
            "--cache-dir",
            "--config-file",
            "--color",
            "-p",
            "--python",
        ],
    ),
    (&["poetry"], &["-C", "--directory", "-P", "--project"]),
    (&["gem"], &["--config-file"]),
    (
        &["docker", "podman", "nerdctl"],
        &[
            "-H",
            "--host",
            "-c",
            "--context",
            "--config",
            "-l",
            "--log-level",
            "--tlscacert",
            "--tlscert",
            "--tlskey",
            "--connection",
            "--url",
            "--root",
            "-n",
            "--namespace",
        ],
    ),
    (
        &["helm"],
        &[
            "-n",
            "--namespace",
            "--kube-context",
            "--kubeconfig",
            "--registry-config",
        ],
    ),
    (
        &["dnf", "yum", "zypper"],
        &[
            "-c",
            "--config",
            "--installroot",
            "--releasever",
            "--setopt",
            "--repo",
            "-R",
            "--root",
        ],
    ),
    (&["go"], &["-C"]),
    // Subcommands, no global option with a value known: an unknown option before the first
    // operand still makes the next one a candidate.
    (
        &[
            "twine",
            "pipx",
            "pipenv",
            "conda",
            "mamba",
            "micromamba",
            "brew",
            "composer",
            "bundle",
            "apk",
            "snap",
            "flatpak",
            "port",
            "choco",
            "winget",
            "scoop",
            "nix-env",
            "dotnet",
            "deno",
            "pacman",
            "flit",
            "hatch",
            "pdm",
            "vsce",
            "ovsx",
            "lerna",
            "changeset",
            "goreleaser",
            "nuget",
            "buildah",
            "service",
            "launchctl",
            "jsr",
            "skopeo",
        ],
        &[],
    ),
];

/// Whether `name` (lower case, without its directory) is a program with subcommands
/// ([`GLOBAL_OPTIONS_WITH_VALUE`]).
///
/// ```text
/// has_subcommands("npm") == true
/// has_subcommands("rm") == false
/// ```
pub(crate) fn has_subcommands(name: &str) -> bool {
    GLOBAL_OPTIONS_WITH_VALUE
        .iter()
        .any(|(names, _)| names.contains(&name))
}

/// Where in `args` the program `name`'s subcommand may start, every reading: the values of
/// its known global options ([`GLOBAL_OPTIONS_WITH_VALUE`]) are skipped; an option the
/// table does not know may take a value, so the word after it is one candidate and the next
/// operand another (a wrong guess only adds a reading). `--` ends the options. `None` for a
/// program without subcommands; `args.len()` when no operand is left.
///
/// ```text
/// subcommand_starts("npm", "--registry URL publish") == Some([2])
/// subcommand_starts("npm", "--foo bar publish") == Some([1, 2])
/// subcommand_starts("rm", "-rf x") == None
/// ```
pub(crate) fn subcommand_starts(name: &str, args: &[String]) -> Option<Vec<usize>> {
    let (_, with_value) = GLOBAL_OPTIONS_WITH_VALUE
        .iter()
        .find(|(names, _)| names.contains(&name))?;
    let mut starts = Vec::new();
    let mut i = 0;
    let mut after_unknown_option = false;
    while let Some(word) = args.get(i) {
        if word == "--" {
            starts.push(i + 1);
            break;
        }
        if word.starts_with('-') && word.len() > 1 {
            let takes_next = with_value.contains(&word.as_str());
            after_unknown_option = !takes_next && !word.contains('=');
            i += if takes_next { 2 } else { 1 };
            continue;
        }
        starts.push(i);
        if !after_unknown_option {
            break;
        }
        // The word may have been the value of the unknown option before it.
        after_unknown_option = false;
        i += 1;
    }
    if starts.is_empty() {
        starts.push(args.len());
    }
    Some(starts)
}
