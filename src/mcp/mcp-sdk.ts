// The parts of the MCP client SDK a session uses, as one module loaded on first use: a dynamic import
// of the package itself would keep every export it has (SSE, DPoP, cross-app access…) in the bundle.
export {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
