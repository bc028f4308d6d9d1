/**
 * The overlay's stylesheet, scoped by its shadow root: the host is a fixed, pointer-transparent
 * layer above the page; only the panel and the marking catcher take pointer input. Focus is
 * always visible; colours keep WCAG AA contrast. The panel docks by `data-dock` (left, right,
 * bottom); `.compact` is its one-row toolbar; `.popover` is the editor beside a mark (placed by
 * the controller through `left`/`top`/`max-height` on the overlay's own element).
 */
export const OVERLAY_CSS = `
:host{all:initial;position:fixed;inset:0;z-index:2147483646;pointer-events:none;font:14px/1.4 system-ui,-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;color:#111827}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.layer{position:fixed;inset:0;pointer-events:none;overflow:hidden}
.marker{position:absolute;left:0;top:0;border:2px solid #2563eb;border-radius:3px;background:rgba(37,99,235,.08)}
.marker.hover{border-style:dashed;border-color:#7c3aed;background:rgba(124,58,237,.06)}
.marker.selection{border-color:#d97706;background:rgba(217,119,6,.1)}
.marker.advice{border-style:dashed;border-color:#0f766e;background:rgba(15,118,110,.06)}
.marker.candidate{border-style:dashed;border-color:#b45309;background:rgba(180,83,9,.06)}
.marker.editing{border-color:#dc2626;background:rgba(220,38,38,.08)}
.marker.text{border-width:0 0 2px;border-radius:0;background:rgba(250,204,21,.35)}
.marker.drawing{border-style:dotted;background:transparent}
.marker .badge{position:absolute;top:-11px;left:-11px}
.drawing{position:absolute;inset:0;overflow:visible}
.drawing polyline{stroke:#dc2626;stroke-width:3;stroke-linecap:round;stroke-linejoin:round}
.drawing.draft polyline{stroke:#2563eb}
.preview{position:absolute;left:0;top:0;border:2px dashed #dc2626;background:rgba(220,38,38,.06)}
.catcher{position:fixed;inset:0;pointer-events:auto;cursor:crosshair;background:transparent;touch-action:none}
.badge{display:inline-flex;align-items:center;justify-content:center;min-width:22px;height:22px;padding:0 6px;border-radius:11px;background:#1d4ed8;color:#fff;font-size:12px;font-weight:600}
.panel{position:fixed;right:16px;bottom:16px;width:min(420px,calc(100vw - 32px));max-height:calc(100vh - 32px);overflow:auto;pointer-events:auto;background:#fff;border:1px solid #d1d5db;border-radius:10px;box-shadow:0 10px 30px rgba(0,0,0,.18);padding:12px 14px}
.panel h2{font-size:16px;margin:0}
.panel h3{font-size:14px;margin:12px 0 6px}
.head{display:flex;align-items:center;justify-content:space-between;gap:8px}
.row{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:6px 0}
.group{display:flex;flex-wrap:wrap;gap:4px;margin:8px 0 0}
.group button{padding:3px 7px}
button{font:inherit;font-size:13px;color:#111827;background:#f3f4f6;border:1px solid #9ca3af;border-radius:6px;padding:4px 9px;cursor:pointer}
button:hover{background:#e5e7eb}
button[aria-pressed=true]{background:#1d4ed8;border-color:#1d4ed8;color:#fff}
button.primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff}
button.ghost{background:#fff}
button.danger{color:#b91c1c;border-color:#b91c1c}
button:disabled{opacity:.55;cursor:default}
kbd{font:600 11px ui-monospace,monospace;border:1px solid currentColor;border-radius:3px;padding:0 3px;margin-left:4px;opacity:.85}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.hint{margin:8px 0;color:#374151;font-size:13px}
label{display:block;font-weight:600;margin:8px 0 3px}
label.choice{display:inline-flex;align-items:center;gap:4px;font-weight:400;margin:2px 10px 2px 0}
.check{display:flex;align-items:flex-start;gap:6px;margin:6px 0}
.check label{font-weight:400;margin:0}
textarea,input[type=text],select{font:inherit;width:100%;border:1px solid #6b7280;border-radius:6px;padding:5px 7px;color:#111827;background:#fff}
fieldset{border:1px solid #d1d5db;border-radius:6px;margin:8px 0;padding:4px 8px 8px}
legend{font-weight:600;padding:0 4px}
.count,.meta,.empty{font-size:12px;color:#4b5563;margin:2px 0}
.criteria{list-style:none;margin:0;padding:0}
.criterion{display:grid;grid-template-columns:1fr 1fr auto;gap:4px;margin:4px 0}
.list ol{list-style:none;margin:0;padding:0}
.item{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start;border-top:1px solid #e5e7eb;padding:6px 0}
.item .body{flex:1 1 200px;min-width:0}
.item .what{margin:0;overflow-wrap:anywhere}
.item .actions input{flex:1 1 120px;width:auto}
.status{font-weight:600;color:#1f2937}
.outcomes{margin:4px 0 0;padding:0;list-style:none;font-size:12px}.o-refused{color:#b91c1c}.o-applied,.o-duplicate{color:#166534}.o-pending{color:#52525b}
.s-resolved{color:#166534}.s-failed,.s-verification_failed,.s-needs_input{color:#b91c1c}.s-review_ready{color:#1d4ed8}
.error{color:#b91c1c;font-size:12px;margin:2px 0}
.badge-inline{display:inline-block;min-width:20px;padding:0 4px;border-radius:8px;background:#0f766e;color:#fff;font-size:11px;text-align:center}
.advice details,.candidates details{font-size:12px;color:#374151}
.candidates .badge-inline{background:#92400e}
.target{margin:4px 0;font-size:13px;overflow-wrap:anywhere}
.launcher{position:fixed;right:16px;bottom:16px;pointer-events:auto;box-shadow:0 4px 14px rgba(0,0,0,.2)}
.launcher[data-dock=left],.panel[data-dock=left]{right:auto;left:16px}
.panel[data-dock=bottom]{width:auto;left:16px;max-height:min(45vh,360px)}
.panel[data-dock=bottom] [data-part=lists]{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));column-gap:16px}
.panel.compact{width:auto;max-width:calc(100vw - 32px);padding:4px 6px;border-radius:8px}
.panel.compact[data-dock=bottom]{left:50%;right:auto;transform:translateX(-50%)}
.strip{display:flex;flex-wrap:wrap;align-items:center;gap:4px}
.strip .group,.strip .row{margin:0}
.strip .group button{padding:2px 7px;min-width:28px}
.strip .label{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.strip .hint{flex-basis:100%;contain:inline-size;margin:2px 2px 0;font-size:12px}
.strip kbd{border:0;margin:0;padding:0;font-size:12px;opacity:1}
.strip .text+kbd{margin-left:5px}
.place{align-items:center}
.popover{position:fixed;left:0;top:0;width:min(360px,calc(100vw - 16px));overflow:auto;pointer-events:auto;background:#fff;border:1px solid #6b7280;border-radius:10px;box-shadow:0 10px 30px rgba(0,0,0,.22);padding:2px 14px 12px}
.layout-host{border-top:1px solid #e5e7eb;margin-top:8px}
`;
