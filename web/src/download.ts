/** Saves text or a blob as a file the browser downloads. */
export function download(name: string, data: string | Blob, type: string): void {
  const blob = typeof data === 'string' ? new Blob([data], { type }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A canvas as a PNG file. */
export function downloadCanvas(name: string, canvas: HTMLCanvasElement): void {
  canvas.toBlob((blob) => {
    if (blob) download(name, blob, 'image/png');
  }, 'image/png');
}

/** The number, string, boolean and null fields of a record: one CSV row of a nested result. */
export function scalarFields(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v === null || ['number', 'string', 'boolean'].includes(typeof v)));
}

/** CSV with a header row from an array of flat records. */
export function toCsv(rows: ReadonlyArray<Record<string, unknown>>): string {
  if (rows.length === 0) return '';
  const columns = Object.keys(rows[0]);
  const cell = (v: unknown): string => {
    const text = v === null || v === undefined ? '' : String(v);
    return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\n') + '\n';
}
