/** The page's stylesheet: readable at a glance, printable, nothing wider than the window. */
export const STYLES = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#0f172a;background:#f1f5f9}
main{max-width:1180px;margin:0 auto;padding:24px 20px 48px}
header.top{background:#0f172a;color:#f8fafc;padding:20px 0}
header.top .inner{max-width:1180px;margin:0 auto;padding:0 20px}
header.top h1{margin:0 0 6px;font-size:26px}
header.top .meta{color:#cbd5e1;font-size:14px;overflow-wrap:anywhere}
header.top .meta b{color:#f8fafc;font-weight:600}
.badge{display:inline-block;padding:2px 10px;border-radius:999px;font-size:13px;font-weight:700;vertical-align:middle;margin-left:8px}
.badge.ok{background:#16a34a;color:#fff}.badge.warn{background:#f59e0b;color:#111}.badge.bad{background:#dc2626;color:#fff}
.badge.dry{background:#6366f1;color:#fff}
section{background:#fff;border:1px solid #e2e8f0;border-radius:10px;padding:18px 20px;margin:18px 0}
h2{margin:0 0 12px;font-size:20px}
h3{margin:18px 0 8px;font-size:16px}
p.note{color:#475569;margin:6px 0}
.msg{color:#475569;font-size:13px}
ul.examples{margin:0;padding-left:18px}ul.examples li{margin:2px 0 6px}
details summary{cursor:pointer;color:#1d4ed8;font-size:13px}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(130px,1fr));gap:10px;margin:0 0 10px}
.card{border:1px solid #e2e8f0;border-left:6px solid var(--c,#64748b);border-radius:8px;padding:8px 12px;background:#f8fafc;min-width:0;container-type:inline-size}
.card .label{font-size:13px;color:#475569;text-transform:uppercase;letter-spacing:.04em}
/* The number shrinks with its card (cqi) rather than break: 10,000,000 stays on one line. */
.card .value{font-size:min(28px,21cqi);font-weight:700;line-height:1.25;white-space:nowrap}
.cards.hero{grid-template-columns:minmax(200px,300px)}
.cards.hero .value{font-size:min(36px,19cqi)}
.invariant{margin:14px 0 4px;padding:10px 14px;border-radius:8px;font-size:16px;overflow-wrap:anywhere}
.invariant.holds{background:#dcfce7;border:1px solid #86efac}
.invariant.broken{background:#fee2e2;border:1px solid #fca5a5}
.invariant .verdict{font-weight:700;margin-left:8px}
.chart{position:relative;width:100%;margin:12px 0}
.two{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:18px}
.error{background:#fee2e2;border:1px solid #fca5a5;border-radius:8px;padding:10px 14px}
table{border-collapse:collapse;width:100%;font-size:14px;table-layout:auto}
table.fixed{table-layout:fixed}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e2e8f0;vertical-align:top}
th{background:#f8fafc;font-weight:600;position:sticky;top:0}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.value,td.wrap{overflow-wrap:anywhere;word-break:break-word;max-width:420px}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
.value-text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;background:#f1f5f9;padding:1px 4px;border-radius:4px;white-space:pre-wrap}
.sev-error{color:#b91c1c;font-weight:600}.sev-warning{color:#b45309;font-weight:600}
.old{color:#b91c1c;text-decoration:line-through}.new{color:#15803d;font-weight:600}
.scroll{max-height:560px;overflow:auto;border:1px solid #e2e8f0;border-radius:8px}
input[type=search]{font:inherit;padding:6px 10px;border:1px solid #cbd5e1;border-radius:6px;width:min(420px,100%)}
a{color:#1d4ed8}
footer{color:#64748b;font-size:13px;text-align:center;margin-top:24px}
@media print{body{background:#fff}section{break-inside:avoid}.scroll{max-height:none}}
`;
