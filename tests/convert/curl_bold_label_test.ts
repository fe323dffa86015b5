/**
 * `convertCurl`: a bold label whose colon stands inside its marks. An API
 * mock server's error page writes each case as "**Message: Can't serialise
 * complex objects as text**" and "**Explanation:** This error occurs when the
 * current document doesn't have any endpoint." between its example commands:
 * a sentence's start allowed the marks before the colon (`**Note**:`), not
 * after it (`**Note:**`), so those lines were read as shell, their
 * apostrophes opened quotes, and the page was refused ("Unterminated single
 * quote") or its commands swallowed. The colon may stand before or after the
 * closing marks now, in every emphasis Markdown writes (`**`, `__`, `*`, `_`).
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

Deno.test("a bold label's colon inside its marks starts a sentence", () => {
  const labels = [
    "**Explanation:** This error occurs when the document doesn't have any endpoint.",
    "**Message: Can't serialise complex objects as text**",
    "__Note:__ the server isn't started yet.",
    "*Warning:* it's refused.",
    "_Tip:_ don't paste the prompt.",
    "- **Explanation:** it hasn't a path.",
    "**Note**: it's the same.",
  ];
  for (const label of labels) {
    const text = [
      "`curl -X POST http://localhost:4010/pets`",
      "",
      label,
      "",
      "`curl -X POST http://localhost:4010/ -A 'Accept: text/plain'`",
      "",
    ].join("\n");
    const { yaml, summary } = convertCurl(text);
    assert.equal(summary.steps, 2, `${label}\n${yaml}`);
  }
});
