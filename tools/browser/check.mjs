// Opens the pages of an agt-transcript --format html -o folder in one
// headless Chromium (playwright-core driving Debian's chromium) and prints
// one JSON line per page: console errors, requests to anything but the page
// itself, CSP violations, dialogs, the tool call ids the page shows, whether
// a folded result opened on click; for the index, the rows before and after
// a filter. Screenshots of the page named by --shoot go to --shots.
//
//   node check.mjs --dir OUT --shots SHOTDIR --shoot claude/x.html --filter WORD --text TEXT
//
// (shows: whether the page's text holds TEXT)
import { chromium } from "playwright-core";
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";

const args = Object.fromEntries(process.argv.slice(2).reduce((a, v, i, all) => (i % 2 === 0 ? a.concat([[v.replace(/^--/, ""), all[i + 1]]]) : a), []));
const dir = args.dir;
const exe = process.env.AGT_CHROMIUM || "/usr/bin/chromium";
const browser = await chromium.launch({ executablePath: exe, args: ["--no-sandbox", "--disable-gpu"] });
const context = await browser.newContext();
// counted before any script of the page runs; the policy does not apply
// to what the browser itself adds
await context.addInitScript(() => {
  window.__csp = [];
  document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(e.violatedDirective + " " + e.blockedURI));
});

function pages(d) {
  const out = [];
  for (const e of readdirSync(d).sort()) {
    const p = join(d, e);
    if (statSync(p).isDirectory()) out.push(...pages(p));
    else if (e.endsWith(".html") && p !== join(dir, "index.html")) out.push(p);
  }
  return out;
}

// one tab for every page: each page's report is r, its address url
const page = await context.newPage();
let r, url;
page.on("console", (m) => { if (m.type() === "error") r.console.push(m.text()); });
page.on("pageerror", (e) => r.console.push(String(e)));
page.on("request", (q) => { if (q.url() !== url) r.requests.push(q.url()); });
page.on("dialog", (d) => { r.dialogs++; d.dismiss(); });

async function open(file, width) {
  await page.setViewportSize({ width, height: 900 });
  url = pathToFileURL(file).href;
  r = { page: relative(dir, file), console: [], requests: [], dialogs: 0 };
  await page.goto(url, { waitUntil: "load" });
}

for (const file of pages(dir)) {
  await open(file, 1280);
  r.calls = await page.$$eval("section.call", (s) => s.map((e) => e.getAttribute("data-call")));
  // printed, what is folded is shown
  const inside = await page.$("details:not([open]) > :not(summary)");
  if (inside) {
    await page.emulateMedia({ media: "print" });
    r.printsFolded = await inside.evaluate((e) => e.checkVisibility());
    await page.emulateMedia({ media: "screen" });
  }
  const folded = await page.$("details.result:not([open]) > summary");
  if (folded) {
    await folded.click();
    r.opened = await folded.evaluate((s) => s.parentElement.open);
  }
  r.csp = await page.evaluate(() => window.__csp);
  if (args.text) r.shows = await page.evaluate((t) => document.body.innerText.includes(t), args.text);
  if (args.shoot && r.page === args.shoot) {
    await page.screenshot({ path: join(args.shots, "session-1280.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(args.shots, "session-390.png") });
    r.overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  }
  console.log(JSON.stringify(r));
}

{
  await open(join(dir, "index.html"), 1280);
  const visible = () => page.$$eval("#sessions tbody tr", (rs) => rs.filter((x) => !x.hidden).length);
  r.rows = await visible();
  await page.click("#sessions th:nth-child(7)"); // sort by tokens
  r.sorted = await page.$eval("#sessions th:nth-child(7)", (th) => th.getAttribute("aria-sort"));
  await page.fill("#filter", args.filter || "");
  r.filtered = await visible();
  r.csp = await page.evaluate(() => window.__csp);
  if (args.shots) {
    await page.fill("#filter", "");
    await page.screenshot({ path: join(args.shots, "index-1280.png") });
  }
  console.log(JSON.stringify(r));
}
await browser.close();
