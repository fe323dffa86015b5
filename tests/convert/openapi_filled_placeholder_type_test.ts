/**
 * `convert openapi`, then the user fills the file placeholder as the
 * summary asks: a multipart file named `.bin` that now holds a picture is
 * sent as the picture's type. Found on an Express recipes API measured by
 * hand: `PATCH /users/avatar` takes an `avatar` (`format: binary`, no type
 * stated), its upload filter refuses anything but an image, and with a real
 * PNG in `files/patch_users_avatar_avatar.bin` the part still went as
 * `application/octet-stream` (from the name): 400 "Only image files are
 * allowed". The name `.bin` says nothing of the content; the bytes do
 * (PNG, JPEG, GIF, WebP and PDF signatures). The placeholder's own text is
 * still `application/octet-stream`.
 *
 * The stand-in runs on 127.0.0.1 and answers 400 to a part that is not an
 * image, as the filter there does.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { serveStandIn } from "../support/openapi_suite.ts";

const document = {
  openapi: "3.0.0",
  info: { title: "Avatars", version: "1" },
  paths: {
    "/avatar": {
      patch: {
        requestBody: {
          required: true,
          content: {
            "multipart/form-data": {
              schema: {
                type: "object",
                required: ["avatar"],
                properties: { avatar: { type: "string", format: "binary" } },
              },
            },
          },
        },
        responses: { "200": { description: "Avatar updated" } },
      },
    },
  },
};

const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);
const JPEG_HEAD = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]);

/** Converts, writes `content` in the placeholder (none: left as written), runs; the types sent. */
async function uploaded(
  content: Uint8Array | undefined,
): Promise<{ types: string[]; code: number }> {
  const types: string[] = [];
  const server = serveStandIn(async (req) => {
    const file = (await req.formData()).get("avatar");
    types.push(file instanceof File ? file.type : "none");
    const image = file instanceof File && file.type.startsWith("image/");
    return image
      ? Response.json({ avatarUrl: "x" })
      : Response.json({ message: "Only image files are allowed" }, { status: 400 });
  });
  const dir = await Deno.makeTempDir({ prefix: "flowrun-filled-placeholder-" });
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document));
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    const placeholder = /^\s+(files\/\S+\.bin): the file step/m.exec(converted.stderr)?.[1];
    assert.ok(placeholder, converted.stderr);
    if (content) await Deno.writeFile(`${dir}/flows/${placeholder}`, content);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)![1];
    const run = await runCli(line.split(" "), { env: { BASE_URL: server.base } });
    return { types, code: run.code };
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a placeholder the user filled with a picture goes as the picture's type, not the name's", async () => {
  assert.deepEqual(await uploaded(PNG), { types: ["image/png"], code: 0 });
  assert.deepEqual(await uploaded(JPEG_HEAD), { types: ["image/jpeg"], code: 0 });
});

Deno.test("the placeholder's own text still goes as application/octet-stream", async () => {
  assert.deepEqual((await uploaded(undefined)).types, ["application/octet-stream"]);
});
