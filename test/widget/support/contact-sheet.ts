/** One avatar's row of the contact sheet: tiles left to right and a few lines of figures. */
export interface SheetRow {
  readonly title: string;
  readonly notes: readonly string[];
  readonly tiles: readonly HTMLCanvasElement[];
}

/** The stage's default background (`--avatar-chat-stage-background`, light scheme). */
const STAGE_TOP = '#e8edf5';
const STAGE_BOTTOM = '#cfd8e6';
const LABEL_WIDTH = 170;
const HEADER = 22;

/**
 * Lays renders out as a grid (one row per avatar, one column per pose or expression) on the
 * stage's own background, with column headings and each row's figures; returns a PNG data URL.
 */
export function contactSheet(columns: readonly string[], rows: readonly SheetRow[], tileWidth: number, tileHeight: number): string {
  const canvas = document.createElement('canvas');
  canvas.width = LABEL_WIDTH + columns.length * tileWidth;
  canvas.height = HEADER + rows.length * tileHeight;
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#1d1d28';
  ctx.font = '13px sans-serif';
  ctx.textBaseline = 'middle';
  columns.forEach((c, i) => ctx.fillText(c, LABEL_WIDTH + i * tileWidth + 6, HEADER / 2));
  rows.forEach((row, r) => {
    const y = HEADER + r * tileHeight;
    ctx.fillStyle = '#1d1d28';
    ctx.font = 'bold 13px sans-serif';
    ctx.textBaseline = 'top';
    ctx.fillText(row.title, 6, y + 6);
    ctx.font = '11px sans-serif';
    row.notes.forEach((line, k) => ctx.fillText(line, 6, y + 26 + k * 14, LABEL_WIDTH - 10));
    row.tiles.forEach((tile, i) => {
      const x = LABEL_WIDTH + i * tileWidth;
      const gradient = ctx.createLinearGradient(0, y, 0, y + tileHeight);
      gradient.addColorStop(0, STAGE_TOP);
      gradient.addColorStop(1, STAGE_BOTTOM);
      ctx.fillStyle = gradient;
      ctx.fillRect(x, y, tileWidth, tileHeight);
      ctx.drawImage(tile, x, y, tileWidth, tileHeight);
      ctx.strokeStyle = '#ffffff';
      ctx.strokeRect(x + 0.5, y + 0.5, tileWidth - 1, tileHeight - 1);
    });
  });
  return canvas.toDataURL('image/png');
}
