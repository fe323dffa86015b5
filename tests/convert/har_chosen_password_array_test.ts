/**
 * `convert har` on a password a dialog chooses for a new account and posts
 * inside a JSON array: a bulk form's `{"users": [{"uid": …, "password1": …,
 * "password2": …}]}`, a top-level list of such objects, or a JSON Patch
 * (RFC 6902) document whose operations name the field by their `path`
 * (`[{"op": "replace", "path": "/password1", "value": …}, …]`), sent as a
 * JSON body or held as text in a multipart part or a urlencoded field. The
 * fields a request sends were read from JSON objects only, so a list's items
 * sent nothing: the value typed twice was asked of the user
 * (`EDIT_2_PASSWORD`) instead of being made up by the run, and a second run
 * on the same instance made the same account again with it.
 *
 * What the converter does (correlate/body_fields.ts): a list's items are read
 * as an object's members are, and a JSON Patch operation sends its `value`
 * under the last segment of its `path`, so the value typed twice there is the
 * run's own (`${RANDOM.PASSWORD}`), sent in the dialog and in the later
 * sign-in as the new user; the operator's sign-in password stays asked. Each
 * encoding runs twice on one stand-in.
 */
import {
  BOUNDARY,
  CHOSEN,
  chosenIsTheRunsOwn,
  dialogRecording,
  directoryStandIn,
} from "../support/dialog_password.ts";

/** A JSON document holding the dialog's two fields, and how to read them back. */
interface Shape {
  name: string;
  json: (one: string, two: string) => unknown;
  pair: (doc: unknown) => unknown[];
}

// deno-lint-ignore no-explicit-any
type Any = any;

const SHAPES: Shape[] = [
  {
    name: "an object's list of items",
    json: (one, two) => ({
      users: [{ uid: "tide", password1: one, password2: two }],
      random: false,
    }),
    pair: (doc: Any) => [doc?.users?.[0]?.password1, doc?.users?.[0]?.password2],
  },
  {
    name: "a top-level list",
    json: (one, two) => [{ uid: "tide", password1: one, password2: two }],
    pair: (doc: Any) => [doc?.[0]?.password1, doc?.[0]?.password2],
  },
  {
    name: "a JSON Patch",
    json: (one, two) => [
      { op: "replace", path: "/password1", value: one },
      { op: "replace", path: "/password2", value: two },
      { op: "replace", path: "/random", value: false },
    ],
    pair: (doc: Any) =>
      ["/password1", "/password2"].map((p) =>
        (Array.isArray(doc) ? doc : []).find((op: Any) => op?.path === p)?.value
      ),
  },
];

/** How the page's script posts the document. */
interface Encoding {
  name: string;
  mime: string;
  body: (json: string) => string;
  read: (req: Request) => Promise<unknown>;
}

const ENCODINGS: Encoding[] = [
  {
    name: "as the JSON body",
    mime: "application/json",
    body: (json) => json,
    read: (req) => req.json(),
  },
  {
    name: "in a multipart part",
    mime: `multipart/form-data; boundary=${BOUNDARY}`,
    body: (json) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="jsonInput"\r\n\r\n${json}\r\n` +
      `--${BOUNDARY}--\r\n`,
    read: async (req) => JSON.parse(String((await req.formData()).get("jsonInput") ?? "{}")),
  },
  {
    name: "in a urlencoded field",
    mime: "application/x-www-form-urlencoded",
    body: (json) => `jsonInput=${encodeURIComponent(json)}&action=change`,
    read: async (req) => JSON.parse(new URLSearchParams(await req.text()).get("jsonInput") ?? "{}"),
  },
];

/** The dialog's document as the page's script posts it, in `shape` and `encoding`. */
function recording(shape: Shape, encoding: Encoding): string {
  const json = JSON.stringify(shape.json(CHOSEN, CHOSEN));
  return dialogRecording({ mime: encoding.mime, text: encoding.body(json) });
}

for (const shape of SHAPES) {
  for (const encoding of ENCODINGS) {
    Deno.test(`convert har: a password a dialog chooses inside ${shape.name}, ${encoding.name}, is the run's own`, async () => {
      const app = directoryStandIn(async (req) => shape.pair(await encoding.read(req)));
      try {
        await chosenIsTheRunsOwn(recording(shape, encoding), app);
      } finally {
        await app.close();
      }
    });
  }
}
