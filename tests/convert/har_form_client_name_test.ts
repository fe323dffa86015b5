/**
 * `convert har` on a form where the user names what they create, as
 * Redmine's new-project form does (tests/real/redmine_har_test.ts): the
 * form posts `project[identifier]=harbour-works` to `/projects`, answered
 * 302 to `/projects/harbour-works/settings`, and the journey then opens
 * `/projects/harbour-works/issues/new`. The name was made the run's own only
 * when a JSON body sent it (correlate/client_names.ts), so the form sent it
 * as recorded and a second run on the same instance was refused (200, the
 * form again: "Identifier has already been taken"), every later step
 * skipped.
 *
 * What the converter does: the strings a form sends (urlencoded, and a
 * multipart body's text parts) are read like a JSON body's, so the name is
 * `harbour-works-${RUN_ID}` wherever it is sent and opened. Widened: both
 * encodings, two runs on one instance; a field no later path opens (the
 * project's display name) stays as recorded. chrome-har gives the page the
 * redirect loads the POST's `Content-Type` (multipart) with no body; the
 * flow gave that GET a guessed upload (Chromium keeps no byte of a body with
 * a file) and did not load ("A GET request cannot have a body"): a GET or
 * HEAD with no recorded body now sends none.
 */
import assert from "node:assert/strict";
import { htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";

/** A stand-in whose projects are addressed by the identifier the form sent; one of a kind. */
function projectsStandIn() {
  const projects = new Map<string, string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const page = (status: number, body: string, location?: string) =>
      htmlPage(url.origin, status, body, location);
    if (req.method === "GET" && url.pathname === "/projects/new") {
      return page(
        200,
        '<form method="post" action="/projects"><input name="project[name]" /></form>',
      );
    }
    if (req.method === "POST" && url.pathname === "/projects") {
      const form = await req.formData();
      const id = String(form.get("project[identifier]") ?? "");
      if (projects.has(id)) return page(200, "Identifier has already been taken");
      projects.set(id, String(form.get("project[name]") ?? ""));
      return page(302, "redirected", `/projects/${id}/settings`);
    }
    const m = /^\/projects\/([^/]+)\/(settings|issues\/new)$/.exec(url.pathname);
    if (req.method === "GET" && m && projects.has(m[1])) return page(200, `<h1>${m[1]}</h1>`);
    return page(404, "Not found");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, projects, close: () => server.shutdown() };
}

const ORIGIN = "http://127.0.0.1:3000";
const BOUNDARY = "----WebKitFormBoundaryq1w2e3";

/** The create's body in `encoding`: the display name and the identifier the user typed. */
function createBody(encoding: "urlencoded" | "multipart") {
  const fields = [["project[name]", "Harbour works"], ["project[identifier]", "harbour-works"], [
    "commit",
    "Create",
  ]];
  if (encoding === "urlencoded") {
    return {
      mimeType: "application/x-www-form-urlencoded",
      text: new URLSearchParams(fields).toString(),
    };
  }
  const parts = fields.map(([k, v]) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`
  );
  return {
    mimeType: `multipart/form-data; boundary=${BOUNDARY}`,
    text: `${parts.join("")}--${BOUNDARY}--\r\n`,
  };
}

/** The journey recorded on another instance: the form, the create, its settings, a new issue's form. */
function recording(encoding: "urlencoded" | "multipart", chromeHar = false): string {
  const body = createBody(encoding);
  const x = [
    { method: "GET", path: "/projects/new", text: "<form></form>" },
    {
      method: "POST",
      path: "/projects",
      body,
      status: 302,
      location: "/projects/harbour-works/settings",
    },
    { method: "GET", path: "/projects/harbour-works/settings", text: "<h1>harbour-works</h1>" },
    { method: "GET", path: "/projects/harbour-works/issues/new", text: "<h1>harbour-works</h1>" },
  ];
  // chrome-har gives the page a redirect loads the headers of the POST before it.
  const typed = [{ name: "Content-Type", value: body.mimeType }];
  return pagesHar(
    ORIGIN,
    x.map((e, i) => ({
      ...e,
      headers: e.body || (chromeHar && i === 2) ? typed : [],
      postData: e.body,
      text: e.text ?? "redirected",
    })),
  );
}

for (
  const [encoding, chromeHar] of [
    ["urlencoded", false],
    ["multipart", false],
    ["multipart", true],
  ] as const
) {
  Deno.test(
    `convert har: an identifier a ${encoding} form named and a later path opens is the run's own, twice on one instance${
      chromeHar ? " (chrome-har: the redirect's page carries the form's content type)" : ""
    }`,
    async () => {
      const app = projectsStandIn();
      try {
        await passesTwice(recording(encoding, chromeHar), app.origin, (flow) => {
          assert.match(flow, /harbour-works-\$\{RUN_ID\}/, flow);
          assert.match(flow, /Harbour works/, flow);
        });
        assert.equal(app.projects.size, 2);
        assert.deepEqual([...app.projects.values()], ["Harbour works", "Harbour works"]);
      } finally {
        await app.close();
      }
    },
  );
}
