/**
 * `convert har` on a server-rendered admin that acts by links, behind HTTP
 * Basic: Supervisor's status page stops a program with
 * `index.html?processname=reports&action=stop`, answered `301` to
 * `/?message=Process reports stopped`, and submits no form. Every entry is an
 * HTML document, so the conversion failed with "The HAR has no API requests"
 * (exit 2): the pages of a server-rendered app were kept only once one of
 * them was a form submission. And Playwright's HAR records the requests
 * answered with a redirect without the `Authorization` the browser sent
 * (chrome-har's keeps it), nor on a page the history went back to: replayed
 * bare, the second action is refused 401.
 *
 * What the converter does (rendered_app.ts, acting_get.ts,
 * basic_challenge.ts): a link that acts (a GET that sent a query and was
 * answered with a redirect) is a submission too, so the site's pages are the
 * journey; and a request of an origin that took one Basic credential, bare
 * though an earlier request of its folder or above sent them, not refused, and
 * answered with a redirect whose hop sent them or to a path other requests sent
 * them to, is given them: the browser sends them unasked in that protection
 * space. Each
 * recording's form runs twice on one stand-in.
 */
import assert from "node:assert/strict";
import { passesTwice } from "../support/form_pages.ts";

const PASSWORD = "harbour-lamp-9";
const CREDENTIALS = `Basic ${btoa(`keeper:${PASSWORD}`)}`;
const HTML = "text/html";

/** A process supervisor's web page: programs, each with links that act. */
function supervisorStandIn() {
  const running = new Map([["mailer", true], ["reports", true]]);
  const actions: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (req.headers.get("authorization") !== CREDENTIALS) {
      return new Response("Unauthorized", {
        status: 401,
        headers: { "www-authenticate": 'Basic realm="default"' },
      });
    }
    const name = url.searchParams.get("processname") ?? "";
    const action = url.searchParams.get("action") ?? "";
    if (url.pathname === "/index.html" && running.has(name) && /^(stop|start)$/.test(action)) {
      running.set(name, action === "start");
      actions.push(`${action} ${name}`);
      const message = `Process ${name} ${action === "stop" ? "stopped" : "started"}`;
      return new Response("Moved", {
        status: 301,
        headers: { location: `${url.origin}/?message=${encodeURIComponent(message)}` },
      });
    }
    if (url.pathname !== "/") return new Response("Not found", { status: 404 });
    const rows = [...running].map(([n, on]) =>
      `<tr><td>${n}</td><td>${on ? "RUNNING" : "STOPPED"}</td>` +
      `<td><a href="index.html?processname=${n}&amp;action=${on ? "stop" : "start"}">` +
      `${on ? "Stop" : "Start"}</a></td></tr>`
    );
    const message = url.searchParams.get("message") ?? "";
    return new Response(
      `<html><body><div class="status_msg">${message}</div><table>${
        rows.join("")
      }</table></body></html>`,
      { headers: { "content-type": HTML } },
    );
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, actions, close: () => server.shutdown() };
}

/**
 * The journey in one recorder's shape: whether a request answered with a redirect, and a page the
 * history went back to, kept their credentials.
 */
function recording(redirectedKeepAuth: boolean): string {
  const origin = "http://127.0.0.1:9001";
  const page = (message: string) =>
    `<html><body><div class="status_msg">${message}</div><table></table></body></html>`;
  const entry = (
    i: number,
    path: string,
    status: number,
    opts: { auth: boolean; to?: string },
  ) => ({
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    time: 5,
    request: {
      method: "GET",
      url: `${origin}${path}`,
      headers: [
        { name: "Accept", value: "text/html" },
        ...(opts.auth ? [{ name: "Authorization", value: CREDENTIALS }] : []),
      ],
      cookies: [],
    },
    response: {
      status,
      headers: [
        { name: "Content-Type", value: HTML },
        ...(opts.to ? [{ name: "Location", value: `${origin}${opts.to}` }] : []),
      ],
      cookies: [],
      content: { mimeType: HTML, text: status === 200 ? page(decodeURIComponent(path)) : "Moved" },
      redirectURL: opts.to ? `${origin}${opts.to}` : "",
    },
    _resourceType: "document",
  });
  const act = (i: number, name: string, action: string, done: string) => {
    const to = `/?message=${encodeURIComponent(`Process ${name} ${done}`)}`;
    return [
      entry(i, `/index.html?processname=${name}&action=${action}`, 301, {
        auth: redirectedKeepAuth,
        to,
      }),
      entry(i + 1, to, 200, { auth: true }),
    ];
  };
  const entries = [
    // The first page's challenge is hidden: one entry, sent bare, answered 200.
    entry(0, "/", 200, { auth: false }),
    ...act(1, "reports", "stop", "stopped"),
    ...act(3, "mailer", "stop", "stopped"),
    // The history went back a page: Playwright's shape writes it bare too.
    entry(5, `/?message=${encodeURIComponent("Process reports stopped")}`, 200, {
      auth: redirectedKeepAuth,
    }),
    ...act(6, "reports", "start", "started"),
    ...act(8, "mailer", "start", "started"),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "stand-in" }, entries } });
}

for (const [shape, keeps] of [["chrome-har's", true], ["Playwright's", false]] as const) {
  Deno.test(`convert har: an admin that acts by links behind Basic, in ${shape} shape, is its pages' journey and passes twice`, async () => {
    const app = supervisorStandIn();
    try {
      await passesTwice(recording(keeps), app.origin, (flow, summary) => {
        assert.match(summary, /links that act/);
        assert.ok(!flow.includes(PASSWORD), flow);
        const asked = new Set(flow.match(/ENV\.\w+/g));
        assert.deepEqual([...asked].sort(), ["ENV.BASE_URL", "ENV.BASIC_PASSWORD"], flow);
      }, { BASIC_PASSWORD: PASSWORD });
      const journey = ["stop reports", "stop mailer", "start reports", "start mailer"];
      assert.deepEqual(app.actions, [...journey, ...journey]);
    } finally {
      await app.close();
    }
  });
}
