/**
 * The idioms of a request's untranslated checks, named for the summary beside
 * the request: a count alone ("1 untranslated") does not say which Postman
 * check the flow lacks. Read from the lines kept as comments.
 *
 * @module
 */

/** Idioms flowrun cannot check, by a pattern of the line that holds one, and why. */
const IDIOMS: [RegExp, string][] = [
  [
    /\b(?:parseInt|parseFloat|Number)\s*\(/,
    "parseInt(…), Number(…) or parseFloat(…) before a comparison: flowrun compares a value as the response holds it",
  ],
  [
    /\bpm\.iterationData\b/,
    // Said whether a data file was given or not: a read flowrun cannot express is either.
    "pm.iterationData read in a way flowrun cannot express (without a data file, --iteration-data FILE as Newman's -d, each read is undefined)",
  ],
  [/\bxml2Json\s*\(/, "xml2Json(…): a flow reads XML by XPath"],
  [
    // `* 2`, `% 2`, ` / 2` (spaced: `/re/i` is a pattern), `+ 1)`/`- 1)` ending an argument.
    /[\w\])]\s*(?:\*\*?|%|\s\/\s)\s*[\w(.]|[\w\])]\s*[-+]\s*\d+(?:\.\d+)?\s*\)/,
    "arithmetic on a value known only when the flow runs (a variable's * 2, a length + 1): a flow's check compares with a value and computes none",
  ],
  [
    /^(?!.*\bpm\.request\b).*\.toString\s*\(\s*\)/,
    "x.toString() of a response part compared with other than literal text (a variable, its length, a match): flowrun compares a value as the response holds it",
  ],
  [/\bpm\.request\b/, "pm.request…: a flow's checks read the response, not the request it sent"],
  [/\bmoment\s*\(/, 'moment(…) beyond a day ("YYYY-MM-DD") or an ISO time: a flow writes no other'],
];

/** The comment parse.ts leaves for a script the sandbox refuses, and what the summary says of it. */
const REFUSED =
  /^\(not translated: it stops at a SyntaxError in Postman's sandbox: (.*) declares ("[^"]*"), /;

/**
 * What the summary says of a request's untranslated checks: each idiom its
 * comment lines hold, and the schema checks beyond the step's one. A script
 * Postman's sandbox refuses (parse.ts) comes first, quoting the declaration.
 *
 * @example
 * ```ts
 * import { untranslatedIdioms } from "./untranslated_idioms.ts";
 * const why = untranslatedIdioms(["pm.expect(parseInt(json.n)).to.be.above(1)"], 1);
 * if (why.length !== 2 || !why[1].startsWith("a second JSON schema check")) throw new Error(why.join());
 * const refused = untranslatedIdioms([
 *   "(not translated: it stops at a SyntaxError in Postman's sandbox: \"const data = 1;\" declares \"data\", a name …)",
 * ], 0);
 * if (!refused[0]?.startsWith('its script stops at a SyntaxError in Postman\'s sandbox ("const data = 1;"')) throw new Error(refused.join());
 * ```
 */
export function untranslatedIdioms(lines: readonly string[], extraSchemas: number): string[] {
  const refused = lines.map((l) => REFUSED.exec(l)).filter((m) => m !== null).map((m) =>
    `its script stops at a SyntaxError in Postman's sandbox (${m[1]} declares ${
      m[2]
    }, a name the sandbox gives every script): Newman runs none of its checks, and the flow has none`
  );
  const why = [
    ...refused,
    ...IDIOMS.filter(([re]) => lines.some((l) => re.test(l))).map(([, w]) => w),
  ];
  if (extraSchemas > 0) {
    why.push(
      `a second JSON schema check${
        extraSchemas > 1 ? ` and ${extraSchemas - 1} more` : ""
      }: flowrun checks one per step`,
    );
  }
  return why;
}
