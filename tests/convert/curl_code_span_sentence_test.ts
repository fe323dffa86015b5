/**
 * `convert curl`: a sentence that starts with inline code and goes on as a capitalised
 * sentence (reStructuredText's ``` ``PUT /items``: It's also possible to… ```, Markdown's
 * `` `DELETE /items`: Here's how… ``), as API pages introduce each endpoint between their
 * commands. The sentence's apostrophe, read as shell, opened a quote that the next command's
 * body closed, and a whole rST page of a cluster manager's REST API was refused ("Unterminated
 * single quote"). Such a line is prose; a command's own apostrophes stay its own.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

/** Two commands with a sentence between them that opens with the given code span. */
const page = (sentence: string) =>
  `Read the settings:

.. code-block:: bash

\t$ curl -s http://localhost:7000/settings

${sentence}

.. code-block:: bash

\t$ curl -s -XPUT -d \\
\t\t'{"size":3}' \\
\t\thttp://localhost:7000/settings
\t{"size": 3}
`;

Deno.test("a sentence opening with inline code then It's is prose, not a quote", () => {
  for (
    const sentence of [
      "``PUT /settings``: It's also possible to rewrite the whole settings:",
      "`PUT /settings`: Here's how to rewrite them all:",
      "``PUT /settings`` It's a full rewrite, done unconditionally.",
      "- ``PUT /settings``: It's a full rewrite.",
    ]
  ) {
    const { yaml, summary } = convertCurl(page(sentence));
    assert.equal(summary.steps, 2, `${sentence}\n${yaml}`);
    assert.match(yaml, /method: PUT/, yaml);
  }
});

Deno.test("a command whose first word is inline code is not taken for a sentence", () => {
  // A shell line never starts with a code span; one that does and then runs curl stays shell.
  const text = "curl -d 'it''s' http://localhost:7000/a\n\ncurl http://localhost:7000/b\n";
  const { summary } = convertCurl(text);
  assert.equal(summary.steps, 2);
});
