/** How a bad regular expression is worded (lib/_util/regex_problem.ts), wherever it is written. */
import assert from "node:assert/strict";
import {
  BAD_REGEX_HINT,
  badRegexMessage,
  regexReason,
  SLOW_REGEX,
} from "../../lib/_util/regex_problem.ts";

/** The error `new RegExp(source)` throws. */
function errorOf(source: string): unknown {
  try {
    new RegExp(source);
  } catch (error) {
    return error;
  }
  throw new Error(`${source} compiled`);
}

Deno.test("a flow's bad pattern drops the engine's lead; an option's keeps it, as documented", () => {
  const error = errorOf("itm_(");
  assert.equal(regexReason(error), "Invalid regular expression: /itm_(/: Unterminated group");
  assert.equal(
    badRegexMessage("itm_(", error),
    'Invalid regular expression "itm_(": /itm_(/: Unterminated group.',
  );
  assert.equal(
    badRegexMessage("(", errorOf("("), "--exclude-url"),
    'Invalid --exclude-url regular expression "(": Invalid regular expression: /(/: Unterminated group.',
  );
});

Deno.test("the hint and the slow-pattern reason read as docs/ show them", () => {
  assert.equal(BAD_REGEX_HINT, "Escape special characters with a backslash, e.g. \\. for a dot.");
  assert.equal(
    SLOW_REGEX,
    "a pattern with nested quantifiers such as (a+)+ can take exponential time",
  );
});
