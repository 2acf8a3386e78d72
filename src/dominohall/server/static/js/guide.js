// The How to play page is rendered on the server; this adds the language menu to its header.
import { mountLanguageMenu } from "./chrome.js";

mountLanguageMenu(document.querySelector("header.top .top-nav"));
