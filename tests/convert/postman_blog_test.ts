/**
 * `convertPostman` on a collection in the shape older collections are written
 * (tests/fixtures/postman/blog.postman_collection.json, written here for the
 * blogging API of tests/apps/conduit): every request kept, every legacy
 * `tests[…]` check and `pm.test` translated, and the values its scripts chain
 * with `pm.globals.set` (the token, the post's slug, the comment's id) read
 * from the step that captured them wherever `{{authToken}}`, `{{postSlug}}`
 * or `{{noteId}}` is written. Without a server.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertPostman } from "../../lib/convert/postman/mod.ts";

const COLLECTION = new URL(
  "../fixtures/postman/blog.postman_collection.json",
  import.meta.url,
);

// deno-lint-ignore no-explicit-any
type Step = any;

function converted() {
  const { files, summary } = convertPostman(Deno.readTextFileSync(COLLECTION));
  const steps: Step[] = files.filter((f) => f.path.endsWith(".yaml"))
    .flatMap((f) => parse(f.text).steps);
  return { steps, summary };
}

Deno.test("postman blog: the blog collection's 31 requests are kept, in order, each check translated", () => {
  const { steps, summary } = converted();
  assert.equal(summary.requests, 31);
  assert.equal(steps.length, 31);
  const untranslated = summary.reports.filter((r) => r.untranslated > 0).map((r) => r.request);
  assert.deepEqual(untranslated, []);
  // Both branches of each `if` are translated, so more checks than Newman runs (278).
  assert.equal(summary.reports.reduce((n, r) => n + r.translated, 0), 337);
  // The run needs the API's base and the password (a secret by where it is sent: a sign-in's
  // password field, not by its name); the user name and e-mail are the user's --var.
  assert.deepEqual(summary.env.map((e) => e.name), ["API_ROOT", "WRITER_PASSWORD"]);
  assert.deepEqual(summary.unset.sort(), ["writer", "writerEmail"]);
});

Deno.test("postman blog: the token, slug and comment id its scripts set are captured and read from their step", () => {
  const { steps } = converted();
  const at = (name: string) => steps.find((s) => s.name === name);
  assert.deepEqual(at("sign_in_and_keep_the_token").capture, { authToken: "$.json.user.token" });
  assert.deepEqual(at("write_a_post").capture, { postSlug: "$.json.article.slug" });
  assert.deepEqual(at("comment_on_the_post").capture, { noteId: "$.json.comment.id" });
  const sent = JSON.stringify(steps.map((s) => s.request));
  assert.doesNotMatch(sent, /\{\{|vars\.(authToken|postSlug|noteId)/);
  const authorized = steps.filter((s) => s.request.headers?.Authorization);
  // The collection writes `Authorization: Token {{authToken}}` on 19 requests.
  assert.equal(authorized.length, 19);
  for (const s of authorized) {
    assert.equal(
      s.request.headers.Authorization,
      "Token ${steps.sign_in_and_keep_the_token.capture.authToken}",
      s.name,
    );
  }
  assert.equal(
    at("remove_the_comment").request.url,
    "${ENV.API_ROOT}/articles/${steps.write_a_post.capture.postSlug}/comments/${steps.comment_on_the_post.capture.noteId}",
  );
});
