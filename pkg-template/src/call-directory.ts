// Where a tool call runs: the directory the call names, else the project. One rule for every
// adapter that maps an agent's call (ACP, the Copilot SDK, the framework adapters).

/**
 * The directory a call runs in: `dir` when the call names one (resolved against `project` when
 * relative; the core folds `.` and `..`), else `project`. A relative `dir` without a project is
 * unknown (`undefined`): the call's relative paths then ask.
 *
 * ```ts
 * callDirectory("/home/ada/.aws", "/home/ada/proj"); // "/home/ada/.aws"
 * callDirectory("sub", "/home/ada/proj"); // "/home/ada/proj/sub"
 * callDirectory(undefined, "/home/ada/proj"); // "/home/ada/proj"
 * ```
 */
export function callDirectory(dir: string | undefined, project: string | undefined): string | undefined {
  if (dir === undefined || dir === "") return project;
  if (dir.startsWith("/") || dir.startsWith("\\\\") || /^[A-Za-z]:[\\/]/.test(dir)) return dir;
  return project === undefined ? undefined : `${project.replace(/[\\/]+$/, "")}/${dir}`;
}
