/**
 * A flow's text with each var's comment above the var and the flow auth's
 * notes above `auth:`: the YAML writer puts comments above list items only.
 *
 * @module
 */
import { oneLine } from "../yaml_out.ts";

/**
 * `text` with the comment of each of `vars` (in their order) above its
 * line under `vars:`, and `authNotes` above the `auth:` line.
 *
 * @example
 * ```ts
 * import { withVarComments } from "./var_comments.ts";
 * const text = withVarComments("vars:\n  id: 1\nauth:\n  x: 1", [["id", 1, "fill in"]], ["once"]);
 * if (text !== "vars:\n  # fill in\n  id: 1\n# once\nauth:\n  x: 1") throw new Error(text);
 * ```
 */
export function withVarComments(
  text: string,
  vars: readonly (readonly [string, ...unknown[]])[],
  authNotes: readonly string[],
): string {
  const lines: string[] = [];
  let inVars = false;
  let next = 0;
  for (const line of text.split("\n")) {
    inVars = line === "vars:" || (inVars && line.startsWith(" "));
    const [key, , comment] = vars[next] ?? [];
    if (inVars && key && (line.startsWith(`  ${key}:`) || line.startsWith(`  "${key}":`))) {
      lines.push(`  # ${oneLine(String(comment))}`);
      next++;
    }
    if (line === "auth:") lines.push(...authNotes.map((n) => `# ${oneLine(n)}`));
    lines.push(line);
  }
  return lines.join("\n");
}
