// Package auth is the authorization side of an MCP client talking to a
// remote server (MCP 2025-11-25 "Authorization", with the 2025-03-26
// fallbacks): an OAuth 2.1 client that finds out where to get a token,
// gets one, keeps it, refreshes it and sends it.
//
// An *Authorizer plugs into the HTTP transports (transport.StreamableHTTP,
// transport.SSE and transport.Auto take it as their Auth field). When the
// server answers 401 it:
//
//  1. reads the WWW-Authenticate challenge (resource_metadata, scope);
//  2. fetches the protected resource metadata (RFC 9728) from the URL the
//     challenge names, else from the path-based well-known URL, else from
//     the root one, and checks that it describes this server;
//  3. fetches the authorization server's metadata by RFC 8414 and OpenID
//     Connect discovery in the order MCP prescribes; a server without
//     resource metadata gets the 2025-03-26 treatment (metadata at its
//     own root, else /authorize, /token and /register there);
//  4. identifies the client: pre-registered credentials, else a client ID
//     metadata document URL when the server supports those, else dynamic
//     registration (RFC 7591);
//  5. obtains a token: the authorization code flow with PKCE (S256) and a
//     state check, through a UserAgent (a browser and a loopback
//     redirect by default), or a non-interactive grant (client
//     credentials with a secret or a private_key_jwt assertion; the
//     enterprise-managed ID-JAG flow), always naming the server in the
//     resource parameter (RFC 8707);
//  6. keeps the token in a Store and sends it as a Bearer token.
//
// A 403 with error="insufficient_scope" re-authorizes with the union of the
// scopes held and asked for (step-up). Expired tokens are refreshed before
// the user is asked again, and many requests that hit an expired token
// share one refresh. At most three authorizations run for challenges
// before a request succeeds; a user who cancels is not asked again until
// Reset.
//
// Nothing secret (tokens, client secrets, codes, verifiers, assertions)
// ever appears in an error, a log line or the String form of a type.
package auth
