/**
 * One HAR entry for the cookie tests' synthetic recordings: a request at `at + path` with its
 * `Cookie` and JSON body when given, answered 200 with `text` and a `Set-Cookie` when given.
 */
export function harEntry(at: string, method: string, path: string, o: {
  started: string;
  mime: string;
  text: string;
  type?: string;
  cookie?: string;
  setCookie?: string;
  body?: string;
}): Record<string, unknown> {
  return {
    startedDateTime: o.started,
    ...(o.type ? { _resourceType: o.type } : {}),
    request: {
      method,
      url: `${at}${path}`,
      headers: [
        { name: "Accept", value: "*/*" },
        ...(o.cookie ? [{ name: "Cookie", value: o.cookie }] : []),
        ...(o.body ? [{ name: "Content-Type", value: "application/json" }] : []),
      ],
      cookies: [],
      ...(o.body ? { postData: { mimeType: "application/json", text: o.body } } : {}),
    },
    response: {
      status: 200,
      headers: o.setCookie ? [{ name: "Set-Cookie", value: o.setCookie }] : [],
      content: { mimeType: o.mime, text: o.text },
    },
  };
}
