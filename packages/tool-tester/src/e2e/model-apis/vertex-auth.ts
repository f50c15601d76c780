// Google Cloud sign-in for `@ai-sdk/google-vertex/anthropic` (Claude on Vertex AI), which has no API
// key: it asks google-auth-library for a token before each request. e2e gives it workload identity
// federation credentials (`external_account`) whose two URLs are the mock model's own: the subject
// token is read from one, and exchanged at the other for an access token, so sign-in, like every
// request of the run, stays on 127.0.0.1.

const SUBJECT_PATH = "/sts/subject-token"
const TOKEN_PATH = "/sts/token"

/** The provider's `googleAuthOptions` for a mock model at `baseURL`. */
export function vertexAuthOptions(baseURL: string): Record<string, unknown> {
  return {
    credentials: {
      type: "external_account",
      audience: "//iam.googleapis.com/projects/0/locations/global/workloadIdentityPools/tool-tester/providers/mock",
      subject_token_type: "urn:ietf:params:oauth:token-type:jwt",
      token_url: `${baseURL}${TOKEN_PATH}`,
      credential_source: { url: `${baseURL}${SUBJECT_PATH}` },
    },
  }
}

/** The answer to a sign-in request under the mock's `/v1` (its JSON body, or text), or undefined for another path. */
export function vertexAuthAnswer(method: string, path: string): { type: string; body: string } | undefined {
  if (method === "GET" && path.endsWith(SUBJECT_PATH)) return { type: "text/plain", body: "tool-tester-mock-subject" }
  if (method === "POST" && path.endsWith(TOKEN_PATH))
    return {
      type: "application/json",
      body: JSON.stringify({
        access_token: "tool-tester-mock-token",
        issued_token_type: "urn:ietf:params:oauth:token-type:access_token",
        token_type: "Bearer",
        expires_in: 3600,
      }),
    }
  return undefined
}
