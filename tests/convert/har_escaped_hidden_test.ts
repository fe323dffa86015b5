/**
 * `convert har` on a form whose page writes a hidden input's value with
 * character references, as a mailing-list manager's compose form does
 * (Sympa 6.2.70, measured by hand in docs/real-servers-har.md): the page
 * hands out a message id `value="&lt;m.1796.22@localhost&gt;"`, fresh on
 * each load, and the browser posts it back read, `<m.1796.22@localhost>`.
 * The value was found in no answer as it was sent, so the flow sent the
 * recording's id on every run: a server that refuses an id it did not hand
 * out (or one it has seen, as a mail system drops a repeated message id)
 * lost the post.
 *
 * What the converter does (lib/convert/correlate/escaped_hidden.ts): a
 * form field whose form page held its input hidden, written with character
 * references that read back as the value sent, is captured from that page
 * with `as: html-decoded` (lib/check/capture_type.ts), urlencoded or
 * multipart. A page that writes back what its own request sent (Adminer's
 * `referer` input holds the `Referer` header) holds the flow's value, not
 * the server's: that one is left to the rules that rebuild it.
 */
import assert from "node:assert/strict";
import { asType } from "../../lib/check/capture_type.ts";
import { runCli } from "../support/cli.ts";
import { formPost, htmlPage, pagesHar, type PageSpec, passesTwice } from "../support/form_pages.ts";

/** A stand-in whose compose page hands out a fresh id it wants back; the subjects it took. */
function standIn() {
  const issued = new Set<string>();
  const taken: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET") {
      const id = `<m.${crypto.randomUUID().slice(0, 8)}.${issued.size}@localhost>`;
      issued.add(id);
      const written = id.replace("<", "&lt;").replace(">", "&gt;");
      return htmlPage(
        url.origin,
        200,
        `<form method="post"><input type="hidden" name="message_id" value="${written}">` +
          `<input name="subject"></form>`,
      );
    }
    const form = await req.formData();
    const id = String(form.get("message_id"));
    if (!issued.delete(id)) return htmlPage(url.origin, 409, `unknown message id ${id}`);
    taken.push(String(form.get("subject")));
    return htmlPage(url.origin, 200, "sent");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, taken, close: () => server.shutdown() };
}

const WRITTEN = "&lt;m.1796.22@localhost&gt;";
const SENT = "<m.1796.22@localhost>";

/** The journey recorded on another instance: the compose page, then its post (`multipart` or not). */
function recording(multipart: boolean): string {
  const boundary = "----WebKitFormBoundaryq3Rk7tWb";
  const post = multipart
    ? {
      headers: [{ name: "Content-Type", value: `multipart/form-data; boundary=${boundary}` }],
      postData: {
        mimeType: `multipart/form-data; boundary=${boundary}`,
        text: [
          `--${boundary}`,
          'Content-Disposition: form-data; name="message_id"',
          "",
          SENT,
          `--${boundary}`,
          'Content-Disposition: form-data; name="subject"',
          "",
          "Rota for May",
          `--${boundary}--`,
          "",
        ].join("\r\n"),
      },
    }
    : formPost(`message_id=${encodeURIComponent(SENT)}&subject=Rota+for+May`);
  const pages: PageSpec[] = [
    {
      method: "GET",
      path: "/compose",
      text: `<form method="post"><input type="hidden" name="message_id" value="${WRITTEN}">` +
        `<input name="subject"></form>`,
    },
    { method: "POST", path: "/compose", ...post, text: "sent" },
  ];
  return pagesHar("http://127.0.0.1:8300", pages);
}

for (const multipart of [false, true]) {
  const kind = multipart ? "multipart" : "urlencoded";
  Deno.test(`convert har: a hidden input the page wrote with character references is read back from it (${kind}), twice`, async () => {
    const app = standIn();
    try {
      await passesTwice(recording(multipart), app.origin, (flow) => {
        assert.ok(!flow.includes("m.1796.22"), flow);
        assert.match(flow, /as: html-decoded/);
      });
      assert.deepEqual(app.taken, ["Rota for May", "Rota for May"]);
    } finally {
      await app.close();
    }
  });
}

Deno.test("convert har: a hidden input writing back the Referer its page was sent is not read from the page", async () => {
  const referer = "http://127.0.0.1:8300/list?db=ledger&table=tides";
  const written = referer.replaceAll("&", "&amp;");
  const pages: PageSpec[] = [
    {
      method: "GET",
      path: "/edit",
      headers: [{ name: "Referer", value: referer }],
      text: `<form method="post"><input type="hidden" name="back" value="${written}"></form>`,
    },
    { method: "POST", path: "/edit", ...formPost(`back=${encodeURIComponent(referer)}`) },
  ];
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.har`, pagesHar("http://127.0.0.1:8300", pages));
    const converted = await runCli(["convert", "har", `${dir}/a.har`, "-o", `${dir}/a.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/a.yaml`);
    assert.ok(!flow.includes("html-decoded"), flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("capture as html-decoded: character references read as a browser reads an attribute", () => {
  assert.equal(
    asType("&lt;m.1@h&gt; &amp;&quot;&#39;&#x41;", "html-decoded").value,
    `<m.1@h> &"'A`,
  );
  // A name it does not know is kept as written, as is a bare ampersand.
  assert.equal(asType("a &unknown; & b", "html-decoded").value, "a &unknown; & b");
  assert.ok(asType(7, "html-decoded").why);
});
