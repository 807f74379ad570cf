/* The toolbar button's popup: the category (the archive's own, asked from the host; the last
   one used filled in, or a new one typed) and Save, which the background page does. */
"use strict";

const api = globalThis.browser ?? globalThis.chrome;
const $ = (id) => document.getElementById(id);

async function open() {
  $("category-label").textContent = api.i18n.getMessage("category");
  $("save").textContent = api.i18n.getMessage("saveToKuaibu");
  const known = await api.runtime.sendMessage({ do: "categories" });
  for (const name of known.categories) {
    const option = document.createElement("option");
    option.value = name;
    $("categories").appendChild(option);
  }
  $("category").value = known.last;
  if (!known.ok) say(known.error, true);
}

function say(text, failed) {
  $("result").textContent = text;
  $("result").className = failed ? "failed" : "";
}

$("save").addEventListener("click", async () => {
  $("save").disabled = true;
  say(api.i18n.getMessage("saving"), false);
  const [tab] = await api.tabs.query({ active: true, currentWindow: true });
  const answer = await api.runtime.sendMessage({ do: "save", tabId: tab.id,
                                                 category: $("category").value.trim() });
  say(answer.text, !answer.ok);
  $("save").disabled = false;
});

open();
