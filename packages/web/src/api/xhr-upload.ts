import type { UploadRequest } from './http';

/**
 * Sends a multipart upload with XMLHttpRequest, the one browser API that reports upload progress
 * over HTTP/1.1, and answers a fetch-style Response so the request layer reads it like any other.
 */
export function xhrUpload(
  req: UploadRequest,
  makeXhr: () => XMLHttpRequest = () => new XMLHttpRequest(),
): Promise<Response> {
  return new Promise((resolve, reject) => {
    if (req.signal.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
      return;
    }
    const xhr = makeXhr();
    const onAbort = () => xhr.abort();
    const done = () => req.signal.removeEventListener('abort', onAbort);
    xhr.open('POST', req.url);
    req.headers.forEach((value, name) => {
      // The browser writes the multipart content type with the boundary it chose.
      if (name.toLowerCase() !== 'content-type') xhr.setRequestHeader(name, value);
    });
    xhr.upload.onprogress = (e) => req.onProgress(e.loaded, e.lengthComputable ? e.total : 0);
    xhr.onload = () => {
      done();
      if (xhr.status < 200 || xhr.status > 599) {
        reject(new TypeError(`upload answered status ${xhr.status}`));
        return;
      }
      const type = xhr.getResponseHeader('content-type');
      resolve(new Response(xhr.responseText, { status: xhr.status, headers: type ? { 'content-type': type } : {} }));
    };
    xhr.onerror = () => {
      done();
      reject(new TypeError('upload failed'));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      done();
      reject(new DOMException('The upload was cancelled', 'AbortError'));
    };
    req.signal.addEventListener('abort', onAbort, { once: true });
    xhr.send(req.body);
  });
}
