/**
 * `convert curl`: a printed answer laid out as JSON with the docs' own slip. An issue tracker's
 * REST page prints what a query "produces" with a quote left out (`"link": http://…/user/4",`):
 * the block does not parse, so it was read as shell, and its lone `"` opened a quote that
 * swallowed the rest of the page ("Unterminated double quote" hundreds of lines below). A `{` or
 * `[` alone on its line outside any command, closed by the first line under it at the same
 * indent (`}`, `]`, maybe a comma), with no blank line and no curl run between, is a printed
 * answer however it is spelled inside. Pages written here in our own words.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

/** A query, its answer printed with `answer` as one of its lines, then a second command. */
const page = (answer: string) =>
  [
    "Ask for the developers::",
    "",
    "   curl 'http://localhost:8917/rest/data/user?roles=Developer'",
    "",
    "produces output similar to::",
    "",
    "    {",
    '        "data": [',
    "            {",
    '                "name": "agent",',
    `                ${answer}`,
    '                "id": "4"',
    "            }",
    "        ]",
    "    }",
    "",
    "Then read the first one::",
    "",
    "   curl 'http://localhost:8917/rest/data/user/4'",
    "",
  ].join("\n");

Deno.test("a printed answer with a quote left out swallows no later command", () => {
  for (const slip of ['"link": http://localhost:8917/rest/data/user/4",', '"note": \'it\'s me",']) {
    const { yaml, summary } = convertCurl(page(slip));
    assert.equal(summary.steps, 2, `${slip}\n${yaml}`);
    assert.match(yaml, /url: \$\{vars\.base_url\}\/rest\/data\/user\/4\n/, slip);
  }
});

Deno.test("a brace group that runs curl is still shell", () => {
  const text = [
    "{",
    "  curl -s http://localhost:8917/rest/data/user/4",
    "}",
    "",
  ].join("\n");
  const { summary } = convertCurl(text);
  assert.equal(summary.steps, 1);
});
