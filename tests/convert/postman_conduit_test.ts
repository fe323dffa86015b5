/**
 * `convertPostman` on the RealWorld project's own collection
 * (tests/fixtures/postman/realworld-conduit.postman_collection.json): every
 * request kept, every legacy `tests[…]` check translated, and the values its
 * scripts chain with `pm.globals.set` (the token, the article's slug, the
 * comment's id) read from the step that captured them wherever `{{token}}`,
 * `{{slug}}` or `{{commentId}}` is written. Without a server.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertPostman } from "../../lib/convert/postman/mod.ts";

const COLLECTION = new URL(
  "../fixtures/postman/realworld-conduit.postman_collection.json",
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

Deno.test("postman conduit: the RealWorld collection's 32 requests are kept, in order, each check translated", () => {
  const { steps, summary } = converted();
  assert.equal(summary.requests, 32);
  assert.equal(steps.length, 32);
  const untranslated = summary.reports.filter((r) => r.untranslated > 0).map((r) => r.request);
  assert.deepEqual(untranslated, []);
  assert.equal(summary.reports.reduce((n, r) => n + r.translated, 0), 380);
  // The run needs the API's base and the password; the user names and e-mail are the user's --var.
  assert.deepEqual(summary.env.map((e) => e.name), ["APIURL", "PASSWORD"]);
  assert.deepEqual(summary.unset.sort(), ["EMAIL", "USERNAME"]);
});

Deno.test("postman conduit: the token, slug and comment id its scripts set are captured and read from their step", () => {
  const { steps } = converted();
  const at = (name: string) => steps.find((s) => s.name === name);
  assert.deepEqual(at("login_and_remember_token").capture, { token: "$.json.user.token" });
  assert.deepEqual(at("create_article").capture, { slug: "$.json.article.slug" });
  assert.deepEqual(at("create_comment_for_article").capture, { commentId: "$.json.comment.id" });
  const sent = JSON.stringify(steps.map((s) => s.request));
  assert.doesNotMatch(sent, /\{\{|vars\.(token|slug|commentId)/);
  const authorized = steps.filter((s) => s.request.headers?.Authorization);
  // The collection writes `Authorization: Token {{token}}` on 22 requests.
  assert.equal(authorized.length, 22);
  for (const s of authorized) {
    assert.equal(
      s.request.headers.Authorization,
      "Token ${steps.login_and_remember_token.capture.token}",
      s.name,
    );
  }
  assert.equal(
    at("delete_comment_for_article").request.url,
    "${ENV.APIURL}/articles/${steps.create_article.capture.slug}/comments/${steps.create_comment_for_article.capture.commentId}",
  );
});
