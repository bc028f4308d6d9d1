// Entry of the review demo page (review.html): renders the documentation's sample in English,
// or its Simplified Chinese twin with `?locale=zh-CN`.
import { createRoot } from "react-dom/client";
import { App as AppEn } from "./SampleEn";
import { App as AppZh } from "./SampleZh";
import "./review.css";

const App = new URLSearchParams(window.location.search).get("locale") === "zh-CN" ? AppZh : AppEn;
const container = document.getElementById("root");
if (container !== null) createRoot(container).render(<App />);
