/**
 * The hints of unknown and missing keys: keys people bring from other tools
 * (Postman, Hurl, k6, …) with what flowrun calls them, checked before
 * edit-distance suggestions, and how to add each required key. Tables of
 * words, one entry per key.
 *
 * @module
 */

/**
 * The keys a step that sends a request may have: one of them indented under
 * another key of the step (or lined up with a sibling of that key) was meant
 * at the step's own indent, and the hint says so.
 */
export const STEP_KEYS = [
  "name",
  "request",
  "capture",
  "extract",
  "depends_on",
  "assert",
  "loop",
  "always",
  "if",
  "tags",
  "options",
  "foreach",
  "as",
  "max_iterations",
  "auth",
] as const;

/** Other tools' words for running a step once per element of a list (runn, Venom, Ansible). */
export const FOREACH_HINTS: Record<string, string> = {
  range: 'Did you mean "foreach"? It runs the step once per element of a list.',
  for_each: 'Did you mean "foreach"?',
  forEach: 'Did you mean "foreach"?',
  each: 'Did you mean "foreach"? It runs the step once per element of a list.',
  with_items: 'Did you mean "foreach"? It runs the step once per element of a list.',
  items: 'Did you mean "foreach"? It runs the step once per element of a list.',
  max_items: 'Did you mean "max_iterations"?',
};

/** Hints for keys people bring from other tools, checked before edit-distance suggestions. */
export const KEY_HINTS: Record<string, Record<string, string>> = {
  flow: {
    variables: 'Flow variables go under "vars".',
    env: 'Flow variables go under "vars"; read the environment with ${ENV.NAME}.',
    tests: 'Steps go under "steps".',
    description:
      'A flow has "name", "vars" and "steps"; use a YAML comment (# …) for a description.',
  },
  step: {
    method: 'The method belongs under "request:".',
    url: 'The URL belongs under "request:".',
    headers: 'Headers belong under "request:".',
    body: 'The body belongs under "request:".',
    assertions: 'Did you mean "assert"?',
    expect: 'Did you mean "assert"?',
    check: 'Did you mean "assert"?',
    captures: 'Did you mean "capture"?',
    needs: 'Did you mean "depends_on"?',
    after: 'Did you mean "depends_on"?',
    until: 'Polling conditions go under "loop: {max_attempts, sleep_ms, until}".',
    poll: 'Polling is "loop: {max_attempts, sleep_ms, until}".',
    finally: 'A cleanup step is marked "always: true": it runs even after a failure.',
    defer: 'A cleanup step is marked "always: true": it runs even after a failure.',
    cleanup: 'A cleanup step is marked "always: true": it runs even after a failure.',
    ensure: 'A cleanup step is marked "always: true": it runs even after a failure.',
    always_run: 'Did you mean "always: true"?',
    timeout: 'Set it under "options": options: {timeout: 5s}.',
    retry:
      'Retries go under "options": options: {retry: {count: 3, on: [network, 503]}}; polling until a condition holds is "loop".',
    retries: 'Set it under "options": options: {retry: {count: 3, on: [network, 503]}}.',
    delay: 'Set it under "options": options: {delay: 500ms}.',
    follow_redirects: 'Set it under "options": options: {follow_redirects: true}.',
    with: 'Values are passed with "with" to an included flow: add "include: shared/file.yaml".',
    use: 'Did you mean "include"? It runs another flow file as this step.',
    import: 'Did you mean "include"? It runs another flow file as this step.',
    call: 'Did you mean "include"? It runs another flow file as this step.',
    run: 'Did you mean "include"? It runs another flow file as this step.',
    ...FOREACH_HINTS,
  },
  include: {
    ...FOREACH_HINTS,
    request:
      "A step that includes a flow sends no request of its own: put the request in a step of its own.",
    loop:
      'An include step cannot poll: put "loop" in a step of the included flow, and check that step\'s last response with "response: <its name>".',
    check: 'Did you mean "assert"? It checks the included flow\'s last response.',
    checks: 'Did you mean "assert"? It checks the included flow\'s last response.',
    from:
      'Did you mean "response"? It names the included step whose response "assert" and "capture" read.',
    step:
      'Did you mean "response"? It names the included step whose response "assert" and "capture" read.',
    options: 'Request options belong in the included flow: its own "options" or its steps\'.',
    vars: 'Did you mean "with"? It sets the included flow\'s vars.',
    params: 'Did you mean "with"? It sets the included flow\'s vars.',
    args: 'Did you mean "with"? It sets the included flow\'s vars.',
    inputs: 'Did you mean "with"? It sets the included flow\'s vars.',
  },
  auth: {
    oauth: 'Did you mean "oauth2"?',
    oauth2_client_credentials: "Write oauth2: {grant_type: client_credentials, …}.",
    apikey: 'Did you mean "api_key"?',
    aws: 'Did you mean "aws_sigv4"?',
    awsv4: 'Did you mean "aws_sigv4"?',
    sigv4: 'Did you mean "aws_sigv4"?',
    type: "Name the kind as the key: auth: {bearer: {token: …}}, not auth: {type: bearer}.",
  },
  auth_oauth2: {
    access_token_url: 'Did you mean "token_url"? (Postman calls it accessTokenUrl.)',
    accessTokenUrl: 'Did you mean "token_url"?',
    tokenUrl: 'Did you mean "token_url"?',
    device_authorization_endpoint:
      'Did you mean "device_authorization_url"? (RFC 8628\'s endpoint, spelled like "token_url".)',
    deviceAuthorizationUrl: 'Did you mean "device_authorization_url"?',
    clientId: 'Did you mean "client_id"?',
    clientSecret: 'Did you mean "client_secret"?',
    grantType: 'Did you mean "grant_type"?',
    scopes: 'Did you mean "scope"? RFC 6749 joins scopes with spaces: scope: "read write".',
    client_authentication: 'Did you mean "client_auth"? basic (default) or body.',
  },
  auth_basic: { user: 'Did you mean "username"?' },
  auth_digest: {
    user: 'Did you mean "username"?',
    algorithm:
      "The server chooses the algorithm (MD5, SHA-256, …) in its challenge; flowrun answers it.",
    qop: "The server chooses qop in its challenge; flowrun answers qop=auth.",
  },
  auth_bearer: {},
  auth_api_key: {
    key: 'Did you mean "name"? The header, query parameter or cookie the key goes in.',
    placement: 'Did you mean "in"? header, query or cookie.',
    add_to: 'Did you mean "in"? header, query or cookie.',
  },
  auth_aws_sigv4: {
    accessKeyId: 'Did you mean "access_key_id"?',
    secretAccessKey: 'Did you mean "secret_access_key"?',
    sessionToken: 'Did you mean "session_token"?',
    unsigned_payload: 'Did you mean "payload: unsigned"? S3 only: UNSIGNED-PAYLOAD is signed.',
    token: 'Did you mean "session_token"?',
    aws_profile: 'Did you mean "profile"?',
    password: "Digest takes a password; aws_sigv4 signs with secret_access_key.",
  },
  auth_file: {},
  options: {
    timeout_ms: 'Did you mean "timeout"? It takes a duration: timeout: 5s.',
    redirects: 'Did you mean "follow_redirects"?',
    follow: 'Did you mean "follow_redirects"?',
    retries: 'Did you mean "retry"? e.g. retry: {count: 3, on: [network, 503]}.',
    sleep: 'Did you mean "delay"? It waits before the step\'s first request.',
  },
  part: {
    type: 'Did you mean "content_type"?',
    path: 'Did you mean "file"? It is the path of the file to send, relative to the flow.',
    name: 'Did you mean "filename"? The part\'s own name is its key.',
  },
  graphql: {
    operationName: 'Did you mean "operation_name"?',
    vars: 'Did you mean "variables"?',
    mutation: 'Write a mutation under "query" too: query: "mutation { … }".',
  },
  retry: {
    max_attempts: 'Did you mean "count"? It is the number of retries after the first request.',
    attempts: 'Did you mean "count"? It is the number of retries after the first request.',
    statuses: 'Did you mean "on"? e.g. on: [network, 502, 503].',
    backoff: 'Write the first wait as "delay"; it doubles at each retry.',
  },
  request: {
    json: 'Did you mean "body"? A map body is sent as JSON.',
    data: 'Did you mean "body" (JSON or text) or "form" (URL-encoded)?',
    files: 'Send files with "multipart": {field: {file: path}}, or the raw bytes with "body_file".',
    file: 'Send a file\'s bytes as the body with "body_file: path", or in "multipart".',
    timeout: 'A step\'s timeout goes under its "options": options: {timeout: 5s}.',
    params: 'Did you mean "query"? e.g. query: {limit: 10}',
    qs: 'Did you mean "query"? e.g. query: {limit: 10}',
  },
  assert: {
    body: 'Assert on the body with "json" (paths at $.json) or "jsonpath" (paths at $).',
    headers: 'Assert on headers under "json" with paths like $.headers.content-type.',
    jsonPath: 'Did you mean "jsonpath"?',
  },
  check: {
    eq: 'Did you mean "equals"?',
    equal: 'Did you mean "equals"?',
    ne: 'Did you mean "notEquals"?',
    not_equals: 'Did you mean "notEquals"?',
    in: 'Did you mean "anyOf"? ("in" is only for status.)',
    oneOf: 'Did you mean "anyOf"?',
    regex: 'Did you mean "matches"?',
    match: 'Did you mean "matches"?',
    ge: 'Did you mean "gte"?',
    le: 'Did you mean "lte"?',
    len: 'Did you mean "length"?',
    size: 'Did you mean "length"?',
    count: 'Did you mean "length"?',
    value: 'Name the operator, e.g. "equals: <value>".',
  },
  capture: {
    jsonpath: 'Write the JSONPath under "path".',
    json: 'Write the JSONPath under "path".',
    selector: 'CSS selectors are not supported; use xpath (e.g. xpath: "//h1") or regex.',
    headers: 'Did you mean "header"?',
    cookies: 'Did you mean "cookie"?',
    matches: 'Did you mean "regex"?',
  },
  group: {
    then:
      'The checks of a group go under "checks"; those for when its "if" does not hold under "else".',
    when: 'Did you mean "if"?',
    base: 'Did you mean "at"? It is the path the group\'s checks are relative to.',
    path: 'A group\'s checks are relative to its "at" path.',
    each: 'Give "at" a wildcard path ($.json.items[*]) to check every element.',
  },
  loop: {
    attempts: 'Did you mean "max_attempts"?',
    retries: 'Did you mean "max_attempts"?',
    times: 'Did you mean "max_attempts"?',
    interval: 'Did you mean "sleep_ms"?',
    delay: 'Did you mean "sleep_ms"?',
    wait: 'Did you mean "sleep_ms"?',
    sleep: 'Did you mean "sleep_ms"? The pause is in milliseconds.',
    // runn's loop counts or runs over a list; flowrun's polls, and a list is the step's "foreach".
    count:
      'A loop polls: "max_attempts" requests until "until" holds. To run the step once per element of a list, give the step "foreach" instead.',
    foreach:
      'Give "foreach" to the step itself, beside "request": a loop polls ("max_attempts" requests until "until" holds).',
  },
};

/** How to add each required key that is missing. */
export const REQUIRED_HINTS: Record<string, string> = {
  name: 'Add "name: …", e.g. name: checkout.',
  steps: 'Add a "steps:" list with at least one step.',
  request: 'Add "request: {method: GET, url: …}".',
  url: 'Add "url: …", e.g. url: ${ENV.BASE_URL}/health.',
  path: 'Add "path: …", e.g. path: $.json.id.',
  max_attempts: 'Polling must be bounded: add "max_attempts: 10".',
  until:
    "Add the condition to wait for, e.g. until: {json: [{path: $.json.state, equals: ready}]}.",
};
