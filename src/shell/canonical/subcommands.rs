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
    (&["gh"], &["-R", "--repo", "--hostname"]),
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
            "--cli-binary-format",
        ],
    ),
    (
        &["gcloud"],
        &[
            "--project",
            "--account",
            "--configuration",
            "--verbosity",
            "--format",
            "--flatten",
            "--billing-project",
            "--impersonate-service-account",
            "--access-token-file",
            "--trace-token",
            "--flags-file",
        ],
    ),
    (&["az"], &["-o", "--output", "--query", "--subscription"]),
    (
        &["kubectl"],
        &[
            "-n",
            "--namespace",
            "--context",
            "--kubeconfig",
            "--cluster",
            "--user",
            "-s",
            "--server",
            "--token",
            "--as",
            "--as-group",
            "--as-uid",
            "--certificate-authority",
            "--client-certificate",
            "--client-key",
            "--cache-dir",
            "--request-timeout",
            "--tls-server-name",
            "-v",
            "--v",
            "--profile",
            "--profile-output",
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
            "--repository-config",
            "--repository-cache",
            "--kube-apiserver",
            "--kube-token",
            "--kube-as-user",
            "--kube-as-group",
            "--kube-ca-file",
            "--burst-limit",
            "--qps",
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

/// Programs whose parser takes their global options between subcommand words as well as
/// before the first: `aws s3 --region r rm` is `aws s3 rm` (aws-cli's and gcloud's argparse
/// parsers read them anywhere, `az`'s knack parser too), `kubectl config --kubeconfig k view`
/// and `gh pr -R o/r merge` (cobra's persistent flags, helm's too). Not docker, podman or
/// nerdctl: their options go before the first subcommand only (`docker image --context x ls`
/// is refused as an unknown flag).
const OPTIONS_BETWEEN_LEVELS: &[&str] = &["aws", "gcloud", "az", "kubectl", "gh", "helm"];

/// The global options of the programs of [`OPTIONS_BETWEEN_LEVELS`] that take no value
/// (`aws help`, `gcloud help`, `az --help`, `kubectl options`, `helm --help`): the word
/// after one is never read as its value.
const GLOBAL_FLAGS: &[(&str, &[&str])] = &[
    (
        "aws",
        &[
            "--debug",
            "--no-verify-ssl",
            "--no-paginate",
            "--no-sign-request",
            "--no-cli-pager",
            "--cli-auto-prompt",
            "--no-cli-auto-prompt",
            "--version",
        ],
    ),
    (
        "gcloud",
        &[
            "--quiet",
            "-q",
            "--log-http",
            "--no-log-http",
            "--user-output-enabled",
            "--no-user-output-enabled",
            "--help",
            "-h",
        ],
    ),
    (
        "az",
        &["--debug", "--verbose", "--only-show-errors", "--help", "-h"],
    ),
    (
        "kubectl",
        &[
            "--insecure-skip-tls-verify",
            "--match-server-version",
            "--warnings-as-errors",
            "--disable-compression",
            "--help",
            "-h",
        ],
    ),
    ("gh", &["--help", "-h"]),
    (
        "helm",
        &["--debug", "--kube-insecure-skip-tls-verify", "--help", "-h"],
    ),
];

/// How many subcommand words deep the readings of a program of [`OPTIONS_BETWEEN_LEVELS`]
/// look (`gcloud beta compute instances delete` is four).
const MAX_LEVELS: usize = 4;

/// How many readings of one command are made at most.
const MAX_READINGS: usize = 64;

/// Every reading of the program `name`'s subcommand in `args`, each the indices of the
/// words that remain once its global options are dropped: the subcommand's words, then the
/// words after the last of them as written. The values of the known global options
/// ([`GLOBAL_OPTIONS_WITH_VALUE`]) are skipped; an option the table does not know may take
/// a value, so the word after it is read both as that value and as the next subcommand
/// word (a wrong guess only adds a reading). `--` ends the options. For a program of
/// [`OPTIONS_BETWEEN_LEVELS`] the options between subcommand words are dropped too, up to
/// [`MAX_LEVELS`] words deep. `None` for a program without subcommands; one empty reading
/// when no operand is left.
///
/// The readings are made depth first, up to [`MAX_READINGS`], the reading in which every
/// unknown option takes a value first at each level: that is how cobra finds a
/// subcommand (kubectl, gh, helm), and argparse (aws, gcloud, az) refuses an option it
/// does not know, so padding a command with unknown options cannot push its real reading
/// past the bound.
///
/// ```text
/// subcommand_readings("npm", "--registry URL publish x") == Some([[2, 3]])
/// subcommand_readings("npm", "--foo bar publish") == Some([[2], [1, 2]])
/// subcommand_readings("aws", "s3 --region r rm x") == Some([[0, 1, 2, 3, 4], [0, 3, 4]])
/// subcommand_readings("rm", "-rf x") == None
/// ```
pub(crate) fn subcommand_readings(name: &str, args: &[String]) -> Option<Vec<Vec<usize>>> {
    let (_, with_value) = GLOBAL_OPTIONS_WITH_VALUE
        .iter()
        .find(|(names, _)| names.contains(&name))?;
    let levels = if OPTIONS_BETWEEN_LEVELS.contains(&name) {
        MAX_LEVELS
    } else {
        1
    };
    let mut readings: Vec<Vec<usize>> = Vec::new();
    // The subcommand words found so far, and where the next one may be. The first
    // candidate is pushed first, so the last one (every unknown option before it took a
    // value) is read first.
    let flags = GLOBAL_FLAGS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(&[][..], |(_, f)| *f);
    let options = KnownOptions { with_value, flags };
    let mut stack: Vec<(Vec<usize>, usize)> = next_word_starts(args, &options, 0)
        .into_iter()
        .map(|at| (Vec::new(), at))
        .collect();
    let mut visits = 0;
    while let Some((path, at)) = stack.pop() {
        visits += 1;
        if readings.len() >= MAX_READINGS || visits > 4 * MAX_READINGS {
            break;
        }
        let mut words = path.clone();
        words.extend(at..args.len());
        if !readings.contains(&words) {
            readings.push(words);
        }
        if at < args.len() && path.len() + 1 < levels {
            let mut deeper = path;
            deeper.push(at);
            for next in next_word_starts(args, &options, at + 1) {
                stack.push((deeper.clone(), next));
            }
        }
    }
    // gcloud's release tracks run the same command group (`gcloud beta compute instances
    // delete` deletes as `gcloud compute instances delete` does): each reading is also read
    // without its track.
    if name == "gcloud" {
        let untracked: Vec<Vec<usize>> = readings
            .iter()
            .filter(|r| {
                r.first()
                    .and_then(|&i| args.get(i))
                    .is_some_and(|w| GCLOUD_RELEASE_TRACKS.contains(&w.as_str()))
            })
            .map(|r| r.get(1..).unwrap_or_default().to_vec())
            .collect();
        for reading in untracked {
            if !readings.contains(&reading) {
                readings.push(reading);
            }
        }
    }
    Some(readings)
}

/// gcloud's release tracks, which come before a command group.
const GCLOUD_RELEASE_TRACKS: &[&str] = &["alpha", "beta", "preview"];

/// A program's known global options: those that take the next word as their value, and
/// those that take none.
struct KnownOptions<'a> {
    with_value: &'a [&'a str],
    flags: &'a [&'a str],
}

/// Where in `args`, from `from` on, the next subcommand word may be, every reading: the
/// values of the known options that take one are skipped; after an option the table does
/// not know, the next operand is one candidate and the operand after it another. `--` ends
/// the options. `args.len()` when no operand is left.
fn next_word_starts(args: &[String], options: &KnownOptions<'_>, from: usize) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut i = from;
    let mut after_unknown_option = false;
    while let Some(word) = args.get(i) {
        if word == "--" {
            starts.push(i + 1);
            break;
        }
        if word.starts_with('-') && word.len() > 1 {
            let w = word.as_str();
            let takes_next = options.with_value.contains(&w);
            after_unknown_option = !takes_next && !w.contains('=') && !options.flags.contains(&w);
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
    starts
}
