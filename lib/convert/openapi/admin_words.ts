/**
 * An operation its own words reserve for administrators: its summary or description says only
 * one may call it. An Express events API (swagger-jsdoc) documents a 403 "Admin access
 * required" on two of its administrators' operations, and on four more only the words of the
 * summary ("Get user by ID (Admin only)", "Toggle user active status (Admin only)"); the run's
 * own sign-up was sent to the toggle and refused 403 on every run. The words must restrict the
 * caller, not name administrators as what the operation reads or makes: "Admin only",
 * "admin-only", "only administrators may", "only for admins.", "requires an admin",
 * "admin role required", "restricted to administrators"; "Create an admin account", "Returns
 * only admin users" and "Admins see every note, others their own" do not (`for_admins.ts`
 * reads the document's other ways of saying so first).
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";

/** An administrator, as words: `admin`, `admins`, `administrator`, `super admin`. */
const WHO = String.raw`(?:super[\s_-]?)?admin(?:istrator)?s?`;
/** Words that restrict the caller to administrators (see the module doc). */
const RESERVED = [
  // "(Admin only)", "admin-only", "Admins only." — closed by punctuation, the end, or a route's noun
  new RegExp(
    String.raw`\b${WHO}[\s_-]+only(?:\s*(?:[).,;:\]!]|$)|\s+(?:access|route|endpoint|operation)\b)`,
    "i",
  ),
  // "only administrators may", "only for admins.", "only by an admin)"
  new RegExp(
    String
      .raw`\bonly\s+(?:(?:for|by|to)\s+)?(?:(?:an?|the)\s+)?${WHO}(?:\s+(?:may|can|are|is|have|has)\b|\s*(?:[).,;:\]!]|$))`,
    "i",
  ),
  // "requires an admin", "admin role required", "restricted to administrators"
  new RegExp(String.raw`\brequir(?:es?|ed)\s+(?:(?:an?|the)\s+)?${WHO}(?![a-z])`, "i"),
  new RegExp(
    String.raw`\b${WHO}\s+(?:role|access|rights?|privileges?|permissions?)\s+(?:is\s+)?required\b`,
    "i",
  ),
  new RegExp(String.raw`\brestricted\s+to\s+(?:(?:an?|the)\s+)?${WHO}(?![a-z])`, "i"),
];

/**
 * The operation's summary, or the sentence of its description, that reserves it for
 * administrators, quoted for the summary; none when neither does (see the module doc).
 *
 * @example
 * ```ts
 * import { adminWords } from "./admin_words.ts";
 * const toggle = { summary: "Toggle user active status (Admin only)" };
 * if (adminWords(toggle) !== `its summary "Toggle user active status (Admin only)"`) throw new Error();
 * const audit = { description: "Lists the log. Only administrators may call it." };
 * if (adminWords(audit) !== `its description "Only administrators may call it."`) throw new Error();
 * if (adminWords({ summary: "Create an admin account" }) !== undefined) throw new Error();
 * if (adminWords({ summary: "Returns only admin users" }) !== undefined) throw new Error();
 * ```
 */
export function adminWords(node: Node): string | undefined {
  for (const key of ["summary", "description"]) {
    const text = node[key];
    if (typeof text !== "string") continue;
    const sentences = text.trim().split(/(?<=[.!?])\s+|\n+/);
    const said = sentences.find((s) => RESERVED.some((re) => re.test(s)));
    if (said !== undefined) return `its ${key} "${said.trim().replace(/\s+/g, " ")}"`;
  }
  return undefined;
}
