/**
 * The words of an untranslated `expect(…)` chain that say why it stayed a comment, for the
 * summary: a word chai does not have (`.or`, `.positive`), on which chai throws, so Newman
 * fails that test too; or a chai word flowrun has no check for (`.satisfy`, `.frozen`). Each is
 * named with the script and line it is on, so the user finds it without reading every comment.
 *
 * @module
 */
import type { PmScript } from "./model.ts";

/** Chai's BDD words (chai 4, as Postman's sandbox has them) and chai-postman's response words. */
const CHAI = new Set(
  ("to be been is that which and has have with at of same but does still also not deep nested " +
    "own ordered any all a an include includes contain contains ok true false null undefined NaN " +
    "exist empty arguments Arguments equal equals eq eql eqls above gt greaterThan least gte " +
    "greaterThanOrEqual below lt lessThan most lte lessThanOrEqual within instanceof instanceOf " +
    "property ownProperty haveOwnProperty ownPropertyDescriptor haveOwnPropertyDescriptor length " +
    "lengthOf match matches string keys key throw throws Throw respondTo respondsTo itself satisfy " +
    "satisfies closeTo approximately members oneOf change changes increase increases decrease " +
    "decreases by extensible sealed frozen finite fail should status header headers body json " +
    "jsonBody jsonSchema responseTime statusCode statusCodeClass statusReason cookie withBody " +
    "success info redirection clientError serverError error accepted badRequest unauthorized " +
    "forbidden notFound notAcceptable rateLimited jsonPath html xml text").split(" "),
);

/** Chai words flowrun translates in some chains (script/expect.ts, script/response.ts). */
const TRANSLATED = new Set(
  ("to be been is that which and has have with at of same does still deep own all itself should " +
    "not any include includes contain contains true false null undefined exist ok empty length " +
    "lengthOf equal equals eq eql eqls a an string members oneOf property ownProperty " +
    "haveOwnProperty keys key within closeTo above gt greaterThan below lt lessThan least gte most " +
    "lte match status header headers body json jsonBody jsonSchema responseTime statusCode " +
    "statusReason success info redirection clientError serverError error accepted badRequest " +
    "unauthorized forbidden notFound notAcceptable rateLimited withBody").split(" "),
);

/** The words chained after the first `expect(…)` of `line` (`.to.be.oneOf([…]).or` → to, be, oneOf, or). */
function chainWords(line: string): string[] {
  const start = line.search(/\bexpect\s*\(/);
  if (start < 0) return [];
  let i = line.indexOf("(", start);
  const words: string[] = [];
  for (let guard = 0; guard < 64 && i < line.length; guard++) {
    // Skip one balanced argument list (quotes and nesting kept simple: a comment line, not code).
    if (line[i] === "(") {
      let depth = 0;
      for (; i < line.length; i++) {
        if (line[i] === "(") depth++;
        else if (line[i] === ")" && --depth === 0) break;
      }
      i++;
    }
    const word = line.slice(i).match(/^\s*\.\s*([A-Za-z_$][\w$]*)/);
    if (!word) break;
    words.push(word[1]);
    i += word[0].length;
  }
  return words;
}

/** Where `line` is among `scripts`: "line 3 of the test script of Login". */
function placeOf(line: string, scripts: readonly PmScript[]): string | undefined {
  for (const s of scripts.filter((s) => s.listen === "test")) {
    // A line kept whole, or the chain a one-line `pm.test(…, () => chain)` holds.
    const text = line.trim().replace(/;$/, "");
    const at = s.source.split("\n").findIndex((l) => l.includes(text));
    if (at >= 0) return `line ${at + 1} of the test script of ${s.owner}`;
  }
  return undefined;
}

/**
 * What the summary says of the chai words in a request's untranslated lines: a word chai does
 * not have, or one flowrun does not translate, each with its place in the request's scripts.
 *
 * @example
 * ```ts
 * import { chaiWordReasons } from "./chai_words.ts";
 * const line = "pm.expect(json.name).to.be.oneOf([null, '']).or.to.be.a('string');";
 * const why = chaiWordReasons([line], [{ listen: "test", source: `const json = pm.response.json();\n${line}`, owner: "Get" }]);
 * if (!why[0].startsWith("`.or` (line 2 of the test script of Get): chai has no such word")) throw new Error(why.join());
 * if (chaiWordReasons(["pm.expect(x).to.satisfy((v) => v > 1)"], [])[0] !== "`.satisfy`: a chai word flowrun does not translate") throw new Error();
 * if (chaiWordReasons(["pm.expect(x).to.equal(pm.variables.get('n'))"], []).length !== 0) throw new Error();
 * ```
 */
export function chaiWordReasons(
  lines: readonly string[],
  scripts: readonly PmScript[],
): string[] {
  const why: string[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    for (const word of chainWords(line)) {
      if (TRANSLATED.has(word) || seen.has(word)) continue;
      seen.add(word);
      const place = placeOf(line, scripts);
      const at = `\`.${word}\`${place ? ` (${place})` : ""}`;
      why.push(
        CHAI.has(word)
          ? `${at}: a chai word flowrun does not translate`
          : `${at}: chai has no such word, so Newman fails this test too (chai throws "Invalid Chai property")`,
      );
    }
  }
  return why;
}
