/**
 * `--filter PATTERN`: selecting flows by name or path. A pattern without glob
 * characters matches when it occurs in the flow's name or file path (like
 * `pytest -k`); a pattern with `*`, `?` or `[…]` must match the whole name,
 * the whole path or the file's base name, where `*` stays within a path
 * segment and `**` crosses segments. Several patterns select the union.
 *
 * @module
 */

const GLOB = /[*?[]/;

/**
 * Converts a glob to an anchored regular expression.
 *
 * @example
 * ```ts
 * import { globToRegExp } from "./filter.ts";
 * const re = globToRegExp("flows/**\/*_login.yaml");
 * if (!re.test("flows/auth/v2/basic_login.yaml") || re.test("other/basic_login.yaml")) throw new Error();
 * ```
 */
export function globToRegExp(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      // "**/" may also match no directory at all.
      const slash = glob[i + 2] === "/";
      out += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end === -1) out += "\\[";
      else {
        out += `[${glob.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/**
 * Whether a flow is selected by any of the patterns (all flows when there
 * are none). `name` is undefined for a file whose name could not be read.
 *
 * @example
 * ```ts
 * import { matchesFilter } from "./filter.ts";
 * const flow = { file: "flows/auth/login.yaml", name: "Login with a token" };
 * if (!matchesFilter(["token"], flow) || !matchesFilter(["login.*"], flow)) throw new Error();
 * if (!matchesFilter(["flows/**"], flow) || matchesFilter(["orders"], flow)) throw new Error();
 * ```
 */
export function matchesFilter(
  patterns: readonly string[],
  flow: { file: string; name?: string },
): boolean {
  if (patterns.length === 0) return true;
  const base = flow.file.slice(flow.file.lastIndexOf("/") + 1);
  return patterns.some((pattern) => {
    if (!GLOB.test(pattern)) {
      return flow.file.includes(pattern) || (flow.name?.includes(pattern) ?? false);
    }
    const re = globToRegExp(pattern);
    return re.test(flow.file) || re.test(base) || (flow.name !== undefined && re.test(flow.name));
  });
}
