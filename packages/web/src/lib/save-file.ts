/** Hands a file to the browser's download (the "save image" of a phone). */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Long enough for a large file to be handed over before its address is let go.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
