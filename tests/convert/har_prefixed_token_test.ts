/**
 * `convert har` on a CSRF token written after a word and a colon, as
 * CSRF-magic (Cacti, tests/real/cacti_har_test.ts) writes it:
 * `sid:<sha1>,<time>` in a hidden `__csrf_magic` field of the login form,
 * and in `var csrfMagicToken = "sid:…,…"` of every page's inline script,
 * which its forms and AJAX calls post back. The page values that start like
 * a URL's scheme (`javascript:`, `mailto:`) were taken for links and never
 * captured, so the login posted the recorded token, which a fresh instance
 * (another secret) refuses, and later forms asked for theirs by name. What
 * follows the colon here is opaque (a long run of letters and digits), so
 * it is a token; a scheme whose rest is no such run (`javascript:void(0)`)
 * is still a link's constant.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { tokenStandIn } from "../support/token_pages.ts";
import { convertHar } from "./har_convert.ts";

/** A token as CSRF-magic makes one: a hash of a secret and the time, then the time. */
function token(): string {
  const hex = crypto.randomUUID().replaceAll("-", "") + crypto.randomUUID().slice(0, 8);
  return `sid:${hex},${1795789000 + Math.floor(Math.random() * 999)}`;
}

const RECORDED = ["sid:46d4eb820ea826ea9fb14f8a484122fbd504c161,1795789732", token()];

/** The login page (the token in its form) or an inner page (the token in its script only). */
function page(path: string, value: string): string {
  const script = `<script type="text/javascript">var csrfMagicToken = "${value}";` +
    `var csrfMagicName = "__csrf_magic";</script>`;
  const form = path === "/index.php"
    ? `<form method="post" action="index.php"><input type='hidden' name='__csrf_magic' ` +
      `value="${value}" /><input name="login_username"></form>`
    : `<a href="javascript:void(0)">Menu</a><form method="post"><input name="name"></form>`;
  return `<html><head>${script}</head><body>${form}</body></html>`;
}

/** One recorded exchange. */
function entry(i: number, method: string, path: string, answer: string, body?: string) {
  const form = "application/x-www-form-urlencoded";
  return {
    startedDateTime: new Date(Date.UTC(2026, 10, 27, 14, 0, i)).toISOString(),
    request: {
      method,
      url: `http://127.0.0.1:8080${path}`,
      headers: body ? [{ name: "content-type", value: form }] : [],
      ...(body ? { postData: { mimeType: form, text: body } } : {}),
    },
    response: {
      status: 200,
      headers: [{ name: "content-type", value: "text/html" }],
      cookies: [],
      content: { mimeType: "text/html", text: answer },
    },
  };
}

/** The login page, its login, an inner page and its form, each posting its page's token. */
function recording(): string {
  const sent = (t: string, rest: string) => `__csrf_magic=${encodeURIComponent(t)}&${rest}`;
  const entries = [
    entry(0, "GET", "/index.php", page("/index.php", RECORDED[0])),
    entry(1, "POST", "/index.php", "<html>in</html>", sent(RECORDED[0], "login_username=admin")),
    entry(2, "GET", "/tree.php?action=edit", page("/tree.php", RECORDED[1])),
    entry(3, "POST", "/tree.php", "<html>saved</html>", sent(RECORDED[1], "name=Harbour")),
  ];
  return JSON.stringify({ log: { entries } });
}

/** A stand-in app: each page a new token; a post with any other is refused. */
const standIn = () =>
  tokenStandIn({
    page,
    fresh: token,
    field: "__csrf_magic",
    answer: (ok) =>
      new Response(ok ? "<html>ok</html>" : "Invalid token", { status: ok ? 200 : 403 }),
  });

Deno.test("convert har: a token written after a word and a colon (sid:<hash>,<time>) is captured from each page, not kept as a link", async () => {
  const dir = await Deno.makeTempDir();
  const app = standIn();
  try {
    const { converted, flow } = await convertHar(dir, recording());
    assert.doesNotMatch(converted.stderr, /Set before running/, converted.stderr);
    for (const recorded of RECORDED) assert.ok(!flow.includes(recorded), flow);
    assert.ok(!flow.includes("javascript"), flow);
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
      assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
    }
    assert.equal(app.refused(), 0);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
