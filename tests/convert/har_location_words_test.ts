/**
 * `convert har` on a directory admin (phpLDAPadmin, by hand in
 * docs/real-servers-har.md): a create form answers 302 to the new entry's
 * page, its `Location` query naming the entry by a readable name built from
 * what the user typed (`dn=cn=Ada Lighthouse,dc=example,dc=com`) and the
 * tree to redraw (`refresh=tree_nodes`). Every value of a redirect's query
 * was taken for a server-issued secret (an OAuth code's rule), so the
 * redactor masked it, and the parts it shares with other values, inside the
 * request data of later steps: `container: "***"`, `dn=***` were sent as
 * written and the journey stopped at the first of them.
 *
 * What the converter does (correlate/producers.ts): a redirect's query value
 * is still captured where a later request sends it (evidence), but it is a
 * secret only when shaped like one (`isSecretShaped`: no spaces, not words);
 * an OAuth `code` still is (tests/convert/har_oauth*_test.ts).
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";
import { runCli } from "../support/cli.ts";

const BASE = "dc=example,dc=com";

/** A directory admin: entries made under the base, shown and deleted by their names. */
function directoryStandIn() {
  const entries = new Set([BASE]);
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const form = req.method === "POST" ? new URLSearchParams(await req.text()) : url.searchParams;
    const answer = (status: number, location?: string) =>
      htmlPage(url.origin, status, String(status), location);
    const cmd = form.get("cmd");
    seen.push(`${cmd} ${form.get("dn") ?? form.get("container") ?? ""} ${form.get("frame") ?? ""}`);
    if (cmd === "create") {
      const container = form.get("container") ?? "";
      const dn = `cn=${form.get("cn")},${container}`;
      if (!entries.has(container) || entries.has(dn)) return answer(400);
      entries.add(dn);
      const q = new URLSearchParams({ cmd: "show", dn, refresh: "tree_nodes" });
      return answer(302, `/cmd.php?${q}`);
    }
    if (cmd === "tree") return answer(form.get("frame") === "tree_nodes_view" ? 200 : 400);
    const dn = form.get("dn") ?? "";
    if (!entries.has(dn)) return answer(404);
    if (cmd === "show") return answer(200);
    if (cmd === "delete" && req.method === "POST") {
      entries.delete(dn);
      return answer(302, "/index.php");
    }
    return answer(400);
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, seen, close: () => server.shutdown() };
}

const ORIGIN = "http://127.0.0.1:3000";
const PERSON = "cn%3DAda+Lighthouse%2Cdc%3Dexample%2Cdc%3Dcom";

/** Open the base, create a person under it, redraw the tree, open the base again, delete. */
function recording(): string {
  return pagesHar(
    ORIGIN,
    [
      { method: "GET", path: "/cmd.php?cmd=show&dn=dc%3Dexample%2Cdc%3Dcom" },
      {
        method: "POST",
        path: "/cmd.php",
        ...formPost("cmd=create&container=dc%3Dexample%2Cdc%3Dcom&cn=Ada+Lighthouse"),
        location: `/cmd.php?cmd=show&dn=${PERSON}&refresh=tree_nodes`,
      },
      { method: "GET", path: `/cmd.php?cmd=show&dn=${PERSON}&refresh=tree_nodes` },
      { method: "GET", path: "/cmd.php?cmd=tree&frame=tree_nodes_view" },
      { method: "GET", path: "/cmd.php?cmd=show&dn=dc%3Dexample%2Cdc%3Dcom" },
      { method: "POST", path: "/cmd.php", ...formPost(`cmd=delete&dn=${PERSON}`), location: "/" },
    ].map((e) => ({ ...e, text: "<html><body></body></html>" })),
  );
}

Deno.test("convert har: readable values a redirect's query names are no secrets, so later requests send them, twice on one instance", async () => {
  const app = directoryStandIn();
  try {
    await passesTwice(recording(), app.origin, (flow, summary) => {
      assert.doesNotMatch(flow, /\*\*\*/, flow);
      assert.match(flow, /container: dc=example,dc=com/, flow);
      assert.match(flow, /frame=tree_nodes_view/, flow);
      assert.doesNotMatch(summary, /masked/, summary);
    });
    // Both runs made, showed and deleted the person, the base shown whole each time.
    assert.equal(app.seen.filter((s) => s === `show ${BASE} `).length, 4, app.seen.join("\n"));
    assert.equal(app.seen.filter((s) => s.startsWith("delete cn=Ada Lighthouse,")).length, 2);
  } finally {
    await app.close();
  }
});

Deno.test("convert har: a redirect's query value shaped like a token is still a secret, masked in what is shown", async () => {
  const har = pagesHar(ORIGIN, [
    {
      method: "POST",
      path: "/cmd.php",
      ...formPost("cmd=create&container=dc%3Dexample%2Cdc%3Dcom&cn=Ada"),
      location: "/cmd.php?cmd=show&ticket=Zk9x2bQr8LmN4pTw",
      text: "<html><body></body></html>",
    },
    { method: "GET", path: "/cmd.php?cmd=show&ticket=Zk9x2bQr8LmN4pTw", text: "<html></html>" },
    { method: "GET", path: "/cmd.php?cmd=edit&ticket=Zk9x2bQr8LmN4pTw", text: "<html></html>" },
  ]);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.har`, har);
    const got = await runCli(["convert", "har", `${dir}/a.har`]);
    assert.equal(got.code, 0, got.stderr);
    const flow = got.stdout;
    assert.doesNotMatch(flow, /Zk9x2bQr8LmN4pTw/, flow);
    assert.match(flow, /query: ticket/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
