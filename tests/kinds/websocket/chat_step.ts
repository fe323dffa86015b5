/**
 * The conversation the chat server of servers.ts takes a flow through, as a
 * step named `chat`: the token on the handshake, a subprotocol, a text, a
 * JSON subscription once two messages came, a binary frame and a goodbye,
 * received until its `done`. Its URL is `${ENV.WS_URL}/chat` and its token
 * `${ENV.WS_TOKEN}`; a test adds the step's checks or captures below it.
 */
export const CHAT_STEP = `  - name: chat
    websocket:
      url: "\${ENV.WS_URL}/chat"
      headers: { authorization: "Bearer \${ENV.WS_TOKEN}" }
      subprotocols: [chat.v1]
      send:
        - text: hello
        - json: { type: subscribe, channel: lobby }
          after: 2
        - binary: "aGVsbG8="
        - text: bye
      until: "$[?@.type == 'done']"
      count: 10
      wait: 10s
`;
