/**
 * The multipart body a curl line sends reads back, as the runtime parses
 * it, as the same parts flowrun sent, whatever the names, values and bytes.
 */
import assert from "node:assert/strict";
import type { SentPart } from "../../lib/http/curl_body.ts";
import { multipartBody } from "../../lib/http/multipart_bytes.ts";
import { formParts } from "../support/form_parts.ts";

async function parsed(parts: SentPart[]): Promise<unknown[]> {
  const { chunks, type } = multipartBody(parts);
  const body = new Blob(chunks.map((c) => typeof c === "string" ? c : new Uint8Array(c)));
  return await formParts(
    new Request("http://x.test/", { method: "POST", headers: { "content-type": type }, body }),
  );
}

/** The same parts as the runtime sends them (a FormData), parsed back. */
async function sentByRuntime(parts: SentPart[]): Promise<unknown[]> {
  const data = new FormData();
  for (const part of parts) {
    if ("value" in part) data.append(part.name, part.value);
    else {
      data.append(
        part.name,
        new Blob([new Uint8Array(part.bytes)], { type: part.type }),
        part.filename,
      );
    }
  }
  return await formParts(new Request("http://x.test/", { method: "POST", body: data }));
}

Deno.test("a multipart body reads back as the parts the runtime sends, hostile names and bytes too", async () => {
  const parts: SentPart[] = [
    { name: "plain", value: "value" },
    { name: 'q"uo\nte', value: "a\nb\r\nc\rd é 🔑" },
    { name: "empty", value: "" },
    {
      name: "file",
      filename: 'we"ird\nname.bin',
      type: "application/pdf",
      bytes: new Uint8Array([0, 13, 10, 45, 45, 255]),
    },
    { name: "untyped", filename: "x", type: "", bytes: new Uint8Array([1, 2, 3]) },
  ];
  assert.deepEqual(await parsed(parts), await sentByRuntime(parts));
});

Deno.test("the boundary is one no part holds", () => {
  const parts: SentPart[] = [
    { name: "a", value: "--flowrun-boundary-0" },
    { name: "f", filename: "f", type: "", bytes: new TextEncoder().encode("flowrun-boundary-1") },
  ];
  assert.equal(multipartBody(parts).type, "multipart/form-data; boundary=flowrun-boundary-2");
});
