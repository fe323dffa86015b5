/**
 * `convert har` on a directory admin (LDAP Account Manager 8.3, by hand in
 * docs/real-servers-har.md): "New user" answers 302 to the form of the
 * folder the user will be made in, named by its LDAP DN
 * (`edit.php?type=user&suffix=ou=People,dc=my-domain,dc=com`). A redirect's
 * query value is captured where sent again, and was a secret when shaped
 * like one: no spaces, not a word. A DN has no spaces, so it was masked, and
 * with it the parts every other value shares with it: the sign-in sent
 * `username: cn=Manager***` (403) and the rest of the journey was skipped.
 *
 * What the converter does (`isSecretShaped`, lib/convert/values.ts): a value
 * made of `attribute=word` parts (`,`, `;` or `+` between them) is a name, no
 * secret; a part shaped like a token still makes it one.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";
import { runCli } from "../support/cli.ts";

const ORIGIN = "http://127.0.0.1:3000";

/** A folder's name and how a form sends it. */
interface Named {
  /** The name as the redirect writes it. */
  name: string;
  /** The admin who signs in, a name sharing parts with the folder's. */
  admin: string;
}

const SPELLINGS: Named[] = [
  { name: "ou=People,dc=my-domain,dc=com", admin: "cn=Manager,dc=my-domain,dc=com" },
  { name: "ou=people;dc=harbour_lights;dc=org", admin: "cn=keeper;dc=harbour_lights;dc=org" },
  { name: "ou=staff,o=lighthouse-2026,c=uk", admin: "cn=admin,o=lighthouse-2026,c=uk" },
];

/** Signs the admin in, then makes users only in the folder it named. */
function directoryStandIn({ name, admin }: Named) {
  const made: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const form = req.method === "POST" ? new URLSearchParams(await req.text()) : url.searchParams;
    const answer = (status: number, location?: string) =>
      htmlPage(url.origin, status, String(status), location);
    if (url.pathname === "/login.php") return answer(form.get("username") === admin ? 200 : 403);
    if (url.pathname === "/list.php") {
      return answer(302, `/edit.php?type=user&suffix=${name}`);
    }
    if (form.get("suffix") !== name) return answer(404);
    if (req.method === "POST") made.push(`${form.get("sn")},${name}`);
    return answer(200);
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, made, close: () => server.shutdown() };
}

/** Sign in, ask for a new user, open the folder's form, make the user there. */
function recording({ name, admin }: Named): string {
  const page = "<html><body></body></html>";
  return pagesHar(
    ORIGIN,
    [
      {
        method: "POST",
        path: "/login.php",
        ...formPost(`username=${encodeURIComponent(admin)}&language=en_GB.utf8`),
      },
      {
        method: "POST",
        path: "/list.php",
        ...formPost("new="),
        location: `/edit.php?type=user&suffix=${name}`,
      },
      { method: "GET", path: `/edit.php?type=user&suffix=${name}` },
      {
        method: "POST",
        path: "/edit.php",
        ...formPost(`suffix=${encodeURIComponent(name)}&sn=Lighthouse`),
      },
    ].map((e) => ({ ...e, text: page })),
  );
}

for (const named of SPELLINGS) {
  Deno.test(`convert har: a redirect's name of attribute=word parts (${named.name}) is no secret, so the sign-in and the form send it, twice on one instance`, async () => {
    const app = directoryStandIn(named);
    try {
      await passesTwice(recording(named), app.origin, (flow, summary) => {
        assert.doesNotMatch(flow, /\*\*\*/, flow);
        assert.ok(flow.includes(`username: ${named.admin}`), flow);
        assert.doesNotMatch(summary, /masked/, summary);
      });
      assert.deepEqual(app.made, [`Lighthouse,${named.name}`, `Lighthouse,${named.name}`]);
    } finally {
      await app.close();
    }
  });
}

Deno.test("convert har: a redirect's attribute=value name whose value is shaped like a token is still a secret", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const har = pagesHar(ORIGIN, [
      {
        method: "POST",
        path: "/list.php",
        ...formPost("new="),
        location: "/edit.php?k=sid=Zk9x2bQr8LmN4pTw,o=x",
      },
      { method: "GET", path: "/edit.php?k=sid=Zk9x2bQr8LmN4pTw,o=x" },
    ]);
    await Deno.writeTextFile(`${dir}/a.har`, har);
    const got = await runCli(["convert", "har", `${dir}/a.har`]);
    assert.equal(got.code, 0, got.stderr);
    assert.doesNotMatch(got.stdout, /Zk9x2bQr8LmN4pTw/, got.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
