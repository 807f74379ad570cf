/* Kuaibu 快捕's extension: "Save to Kuaibu" on the toolbar (popup.html), in the context menu
   of a page, a selection or a link, and on a keyboard shortcut. A page is sent as the browser
   shows it now (its DOM, scripts' output included) with the selection when there is one; a
   link is sent to be added as a task. Everything goes to the native messaging host
   (`kuaibu capture-host`), which the browser starts per message: no port is opened. */
"use strict";

const HOST = "app.kuaibu.capture";
const api = globalThis.browser ?? globalThis.chrome;

function t(name, subs) {
  return api.i18n.getMessage(name, subs) || name;
}

/* One message to the host and its answer; an unreachable host is an answer too. */
async function ask(message) {
  try {
    return await api.runtime.sendNativeMessage(HOST, message);
  } catch (e) {
    return { ok: false, error: t("noHost", [String((e && e.message) || e)]) };
  }
}

async function lastCategory() {
  const { category } = await api.storage.local.get("category");
  return typeof category === "string" ? category : "";
}

/* The archive's categories for the popup's chooser, and the one used last. */
async function categories() {
  const answer = await ask({ kind: "categories" });
  return { ok: answer.ok, error: answer.error || "", categories: answer.categories || [],
           last: await lastCategory() };
}

/* Runs in the page: what the person sees now. The selection's links and images are made
   absolute here, where the page's base address is known. */
function snapshot() {
  const selected = getSelection();
  let selection = "";
  if (selected && !selected.isCollapsed && selected.rangeCount) {
    const box = document.createElement("div");
    for (let i = 0; i < selected.rangeCount; i++) {
      box.appendChild(selected.getRangeAt(i).cloneContents());
    }
    for (const img of box.querySelectorAll("img[src]")) img.setAttribute("src", img.src);
    for (const a of box.querySelectorAll("a[href]")) a.setAttribute("href", a.href);
    selection = box.innerHTML;
  }
  return { url: location.href, title: document.title,
           html: document.documentElement.outerHTML, selection };
}

/* The browser's name and version, as the record says where the page came from. */
function browserName() {
  const brands = (navigator.userAgentData?.brands || [])
    .filter((b) => !/not.a.brand/i.test(b.brand));
  const brand = brands.find((b) => b.brand !== "Chromium") || brands[0];
  if (brand) return `${brand.brand} ${brand.version}`;
  const m = navigator.userAgent.match(/(Firefox|Chrome)\/([\d.]+)/);
  return m ? `${m[1]} ${m[2]}` : navigator.userAgent.slice(0, 200);
}

/* What the answer means to the person, in their language. */
function wording(answer, link) {
  if (!answer.ok) return t("notSaved", [answer.error || "?"]);
  const id = String(answer.task);
  if (link) return t(answer.added ? "linkAdded" : "linkKnown", [id]);
  if (answer.waiting) return t("savedWaiting", [id]);
  if (answer.error) return t("savedWithProblem", [id, answer.error]);
  return t(answer.added ? "saved" : "savedAgain", [id]);
}

/* The result on the toolbar button: the task's number (or ✕) and the sentence as its title. */
async function show(tab, answer, link) {
  const text = wording(answer, link);
  const badge = answer.ok ? String(answer.task) : "✕";
  const where = tab && tab.id !== undefined ? { tabId: tab.id } : {};
  await api.action.setBadgeBackgroundColor({ ...where, color: answer.ok ? "#2e7d32" : "#c62828" });
  await api.action.setBadgeText({ ...where, text: badge.length <= 4 ? badge : "✓" });
  await api.action.setTitle({ ...where, title: `${t("saveToKuaibu")}: ${text}` });
  return { ...answer, text };
}

/* Save the tab's page as shown now, filed under `category` (remembered for next time). */
async function savePage(tab, category) {
  if (!/^https?:/i.test(tab.url || "")) return show(tab, { ok: false, error: t("notWeb") });
  await api.storage.local.set({ category });
  let page;
  try {
    const [injection] = await api.scripting.executeScript({ target: { tabId: tab.id },
                                                            func: snapshot });
    page = injection.result;
  } catch (e) {
    return show(tab, { ok: false, error: t("cannotRead", [String((e && e.message) || e)]) });
  }
  const answer = await ask({ kind: "page", url: page.url, title: page.title, html: page.html,
                             selection: page.selection, browser: browserName(), category });
  return show(tab, answer, false);
}

/* Add a link as a task, remembering the page it was on. */
async function saveLink(tab, url, pageUrl, category) {
  await api.storage.local.set({ category });
  const answer = await ask({ kind: "link", url, found_on: pageUrl || "", category });
  return show(tab, answer, true);
}

api.runtime.onInstalled.addListener(() => {
  api.contextMenus.create({ id: "save-page", title: t("saveToKuaibu"),
                            contexts: ["page", "selection"] });
  api.contextMenus.create({ id: "save-link", title: t("saveToKuaibu"), contexts: ["link"] });
});

api.contextMenus.onClicked.addListener(async (info, tab) => {
  const category = await lastCategory();
  if (info.menuItemId === "save-link") {
    await saveLink(tab, info.linkUrl, info.pageUrl, category);
  } else if (info.menuItemId === "save-page") {
    await savePage(tab, category);
  }
});

api.commands.onCommand.addListener(async (command, tab) => {
  if (command !== "save-page") return;
  const [active] = tab ? [tab] : await api.tabs.query({ active: true, currentWindow: true });
  if (active) await savePage(active, await lastCategory());
});

/* The popup's requests: the categories, and Save for its tab. Only this extension's own
   pages can send them (no content script and no externally_connectable is declared). */
api.runtime.onMessage.addListener((request, sender, reply) => {
  if (sender.id !== api.runtime.id) return false;
  if (request.do === "categories") {
    categories().then(reply);
  } else if (request.do === "save") {
    api.tabs.get(request.tabId).then((tab) => savePage(tab, request.category)).then(reply);
  } else {
    return false;
  }
  return true;
});
