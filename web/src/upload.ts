// A multipart POST that reports bytes sent (XMLHttpRequest's upload events: fetch has none), errors as api.ts Problems.
import { type Api, problemOf, unreachable } from "./api.ts";

export type Sent = { loaded: number; total: number };

export type UploadEvents = {
  /** Bytes of the request body sent so far. */
  onProgress: (sent: Sent) => void;
  /** Every byte is sent: the server is now working on it. */
  onSent: () => void;
};

/** POSTs `form` to `path` with the bearer token; resolves with the JSON body, rejects with a Problem. */
export async function postForm<T>(
  api: Api,
  path: string,
  form: FormData,
  events: UploadEvents,
  signal?: AbortSignal,
): Promise<T> {
  const headers = await api.headers();
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) events.onProgress({ loaded: e.loaded, total: e.total });
    };
    xhr.upload.onload = () => events.onSent();
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON (a proxy's error page): the status alone says what happened.
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(problemOf(xhr.status, body as Parameters<typeof problemOf>[1]));
    };
    xhr.onerror = () => reject(unreachable());
    xhr.onabort = () => reject(new DOMException("The upload was cancelled", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
