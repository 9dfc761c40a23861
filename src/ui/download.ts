/** Lets the browser download `url` as `fileName`, streamed to disk (an export may exceed memory). */
export function startDownload(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
}
