/**
 * `convert har` on a token the server wrote into the path of a page's own
 * form or link, as Postorius (Mailman 3's web UI, measured by hand in
 * docs/real-servers-har.md) lists a subscription waiting for approval: its
 * page holds `<form action="/postorius/lists/…/handle_subscription_request/
 * eba88f3197491cb4e5c65e1c7ce7f6073668d9c0/" method="POST">`, the request's
 * token, and the moderator's "Accept" posts there. The flow sent the
 * recorded token: Mailman answered 404, Postorius redirected as after an
 * accept (302), and the step passed while nobody was accepted, on every
 * run. Only a link's query values were read from pages.
 *
 * What the converter does (correlate/linked_paths.ts): a path segment that
 * is text a server made up (made_up_text.ts: 16 or more letters and digits,
 * shaped like a secret), which the latest earlier page links in a form's
 * `action` or an `href` around the same path, is captured from that page,
 * as it was for segments the page escaped. Widened: a form's action, a link,
 * a link written whole with its origin, a token at the path's end; a route's
 * words stay as recorded.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";

/** How a page writes the place to act on the request whose token is `t`. */
type Writer = (origin: string, t: string) => { html: string; method: string; path: string };

const WRITERS: Record<string, Writer> = {
  "a form's action": (_, t) => ({
    html:
      `<form action="/lists/tides/handle/${t}/" method="POST"><input type="submit" name="accept"></form>`,
    method: "POST",
    path: `/lists/tides/handle/${t}/`,
  }),
  "a link": (_, t) => ({
    html: `<a href="/lists/tides/confirm/${t}">Accept</a>`,
    method: "GET",
    path: `/lists/tides/confirm/${t}`,
  }),
  "a link written whole": (origin, t) => ({
    html: `<a href="${origin}/lists/tides/confirm/${t}?next=list">Accept</a>`,
    method: "GET",
    path: `/lists/tides/confirm/${t}`,
  }),
};

/** A random token of 40 hex digits, as Mailman makes a pending request's. */
const token = () =>
  [...crypto.getRandomValues(new Uint8Array(20))].map((b) => b.toString(16).padStart(2, "0"))
    .join("");

/** Pending subscriptions, each with a fresh token; acting on an unknown one redirects all the same. */
function pendingStandIn(write: Writer) {
  const pending = new Map<string, string>();
  const accepted: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const page = (body: string) => htmlPage(url.origin, 200, body);
    const form = req.method === "POST" ? new URLSearchParams(await req.text()) : undefined;
    if (url.pathname === "/lists/tides/subscribe/" && form) {
      pending.set(token(), form.get("email") ?? "");
      return htmlPage(url.origin, 302, "", "/lists/tides/requests/");
    }
    if (url.pathname === "/lists/tides/requests/") {
      return page([...pending.keys()].map((t) => write(url.origin, t).html).join(""));
    }
    const m = /^\/lists\/tides\/(?:handle|confirm)\/([^/]+)\/?$/.exec(url.pathname);
    if (!m) return page("<h1>Tides</h1>");
    // Like Postorius: an unknown token is an error message after the same redirect.
    const email = pending.get(m[1]);
    if (email !== undefined) {
      pending.delete(m[1]);
      accepted.push(email);
    }
    return htmlPage(url.origin, 302, "", "/lists/tides/members/");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, accepted, close: () => server.shutdown() };
}

const RECORDED = "eba88f3197491cb4e5c65e1c7ce7f6073668d9c0";

/** The journey on an instance that gave the request the token `RECORDED`. */
function recording(write: Writer): string {
  const origin = "http://127.0.0.1:8000";
  const act = write(origin, RECORDED);
  return pagesHar(origin, [
    {
      method: "POST",
      path: "/lists/tides/subscribe/",
      ...formPost("email=visitor%40example.test"),
      location: "/lists/tides/requests/",
    },
    { method: "GET", path: "/lists/tides/requests/", text: act.html },
    {
      method: act.method,
      path: act.path,
      ...(act.method === "POST" ? formPost("accept=Accept") : {}),
      location: "/lists/tides/members/",
    },
    { method: "GET", path: "/lists/tides/members/", text: "<h1>Members</h1>" },
  ]);
}

for (const [where, write] of Object.entries(WRITERS)) {
  Deno.test(`convert har: a server's token in the path of ${where} is captured from its page, twice on one instance`, async () => {
    const app = pendingStandIn(write);
    try {
      await passesTwice(recording(write), app.origin, (flow) => {
        assert.doesNotMatch(flow, new RegExp(`url: .*${RECORDED}`), flow);
        assert.match(flow, /url: \$\{vars\.base_url\}\/lists\/tides\/(?:handle|confirm)\/\$\{/);
      });
      // The typed address is the run's own (visitor+<run id>@…); each run's request is accepted.
      assert.equal(app.accepted.length, 2, JSON.stringify(app.accepted));
      for (const email of app.accepted) assert.match(email, /^visitor\b.*@example\.test$/);
    } finally {
      await app.close();
    }
  });
}
