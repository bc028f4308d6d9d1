/**
 * The built-in catalog of UI component types that Layout Mode offers when a reviewer places a new
 * component. Each entry has a stable kebab-case id (what a catalog pick stores in
 * `LayoutPlacement.componentType`), an English and a Simplified Chinese display name, and search
 * keywords in both languages. The catalog only helps fill a structured field: nothing in it is ever
 * turned into instruction text for a repair agent.
 * @module
 */

/** One component type of the catalog; frozen, so callers cannot edit the shared table. */
export interface CatalogEntry {
  /** Stable kebab-case id, stored as `componentType` when the reviewer picks this entry. */
  readonly id: string;
  /** English display name. */
  readonly en: string;
  /** Simplified Chinese display name. */
  readonly zhCN: string;
  /** Extra search words (synonyms, common library names) per language. */
  readonly keywords: { readonly en: readonly string[]; readonly zhCN: readonly string[] };
}

type Row = readonly [id: string, en: string, zhCN: string, enKeywords: readonly string[], zhKeywords: readonly string[]];

// Grouped by family (inputs, navigation, containers, feedback, data display, page sections) so
// the unfiltered list reads in a sensible order.
const ROWS: readonly Row[] = [
  // Actions and inputs
  ["button", "Button", "按钮", ["action", "submit", "cta"], ["提交", "操作"]],
  ["icon-button", "Icon button", "图标按钮", ["icon", "action"], ["图标"]],
  ["button-group", "Button group", "按钮组", ["buttons", "actions"], ["操作组"]],
  ["toggle-button", "Toggle button", "切换按钮", ["pressed", "toggle"], ["切换"]],
  ["link", "Link", "链接", ["anchor", "hyperlink"], ["超链接"]],
  ["text-field", "Text field", "文本框", ["input", "text input", "textbox"], ["输入框", "单行输入"]],
  ["textarea", "Text area", "多行文本框", ["multiline", "textarea", "comment box"], ["多行输入", "文本域"]],
  ["password-field", "Password field", "密码框", ["password", "secret"], ["密码输入"]],
  ["number-field", "Number field", "数字输入框", ["number", "spinbutton", "quantity"], ["数量", "步进器"]],
  ["search-field", "Search field", "搜索框", ["search", "query"], ["搜索", "查询"]],
  ["select", "Select", "下拉选择框", ["dropdown", "picker", "options"], ["选择器", "下拉框"]],
  ["combobox", "Combobox", "组合框", ["autocomplete", "typeahead"], ["自动完成", "联想输入"]],
  ["multi-select", "Multi-select", "多选下拉框", ["multiple", "select many"], ["多选"]],
  ["checkbox", "Checkbox", "复选框", ["check", "tick"], ["勾选", "多选框"]],
  ["radio-group", "Radio group", "单选按钮组", ["radio", "option"], ["单选", "单选框"]],
  ["switch", "Switch", "开关", ["toggle", "on off"], ["切换开关"]],
  ["slider", "Slider", "滑块", ["range", "scrubber"], ["滑动条"]],
  ["range-slider", "Range slider", "范围滑块", ["range", "min max"], ["区间", "范围"]],
  ["date-picker", "Date picker", "日期选择器", ["date", "calendar input"], ["日期"]],
  ["time-picker", "Time picker", "时间选择器", ["time", "clock"], ["时间"]],
  ["date-range-picker", "Date range picker", "日期范围选择器", ["date range", "period"], ["日期区间"]],
  ["color-picker", "Color picker", "颜色选择器", ["colour", "swatch"], ["取色器", "颜色"]],
  ["file-upload", "File upload", "文件上传", ["upload", "dropzone", "attachment"], ["上传", "附件"]],
  ["rating", "Rating", "评分", ["stars", "score"], ["星级", "打分"]],
  ["segmented-control", "Segmented control", "分段控制器", ["segments", "button bar"], ["分段选择"]],
  ["tag-input", "Tag input", "标签输入框", ["tags", "chips input"], ["标签"]],
  ["verification-code-input", "Verification code input", "验证码输入框", ["otp", "one-time code", "pin"], ["验证码", "动态码"]],
  ["form", "Form", "表单", ["fields", "inputs"], ["填写"]],
  // Navigation
  ["navbar", "Navigation bar", "导航栏", ["navbar", "top bar", "nav"], ["顶部导航", "导航"]],
  ["sidebar", "Sidebar", "侧边栏", ["side nav", "rail"], ["侧边导航", "侧栏"]],
  ["breadcrumb", "Breadcrumb", "面包屑", ["path", "trail"], ["路径导航"]],
  ["tabs", "Tabs", "标签页", ["tab bar", "tablist"], ["选项卡", "页签"]],
  ["pagination", "Pagination", "分页", ["pager", "pages"], ["翻页", "分页器"]],
  ["menu", "Menu", "菜单", ["menu list", "options"], ["菜单项"]],
  ["dropdown-menu", "Dropdown menu", "下拉菜单", ["dropdown", "overflow menu"], ["更多菜单"]],
  ["context-menu", "Context menu", "右键菜单", ["right click", "context"], ["上下文菜单"]],
  ["stepper", "Stepper", "步骤条", ["steps", "wizard", "progress steps"], ["步骤", "向导"]],
  ["bottom-navigation", "Bottom navigation", "底部导航栏", ["tab bar", "mobile nav"], ["底部标签栏"]],
  ["table-of-contents", "Table of contents", "内容目录", ["toc", "outline", "anchor"], ["目录", "锚点"]],
  ["command-palette", "Command palette", "命令面板", ["command", "quick open", "spotlight"], ["快捷命令"]],
  ["toolbar", "Toolbar", "工具栏", ["actions bar", "tools"], ["操作栏"]],
  ["back-to-top", "Back to top", "回到顶部", ["scroll top", "go up"], ["返回顶部"]],
  // Containers and overlays
  ["card", "Card", "卡片", ["tile", "panel"], ["卡片式"]],
  ["modal-dialog", "Modal dialog", "模态对话框", ["modal", "dialog", "popup"], ["弹窗", "对话框"]],
  ["confirm-dialog", "Confirmation dialog", "确认对话框", ["confirm", "are you sure"], ["二次确认", "确认框"]],
  ["drawer", "Drawer", "抽屉", ["side sheet", "slide over"], ["侧滑面板"]],
  ["bottom-sheet", "Bottom sheet", "底部弹出面板", ["action sheet", "sheet"], ["动作面板"]],
  ["popover", "Popover", "气泡卡片", ["popup", "flyout"], ["弹出框"]],
  ["tooltip", "Tooltip", "文字提示", ["hint", "hover text"], ["工具提示", "提示"]],
  ["accordion", "Accordion", "折叠面板", ["collapse", "expander", "disclosure"], ["手风琴", "展开收起"]],
  ["panel", "Panel", "面板", ["box", "container"], ["容器"]],
  ["split-pane", "Split pane", "分栏面板", ["splitter", "resizable panes"], ["分割面板"]],
  ["grid", "Grid layout", "栅格布局", ["grid", "columns"], ["栅格", "网格"]],
  ["divider", "Divider", "分割线", ["separator", "rule"], ["分隔线"]],
  ["carousel", "Carousel", "轮播图", ["slider", "slideshow"], ["走马灯", "轮播"]],
  // Feedback
  ["toast", "Toast", "轻提示", ["snackbar", "notification"], ["消息提示", "吐司"]],
  ["alert", "Alert", "警告提示", ["callout", "warning"], ["警告", "提示条"]],
  ["banner", "Banner", "通知横幅", ["announcement", "notice bar"], ["横幅", "公告栏"]],
  ["progress-bar", "Progress bar", "进度条", ["progress", "loading bar"], ["进度"]],
  ["spinner", "Loading spinner", "加载指示器", ["loader", "spinner", "busy"], ["加载中", "菊花"]],
  ["skeleton", "Skeleton", "骨架屏", ["placeholder", "shimmer"], ["占位"]],
  ["badge", "Badge", "徽标", ["counter", "dot"], ["角标", "红点"]],
  ["notification-center", "Notification center", "通知中心", ["inbox", "notifications"], ["消息中心"]],
  ["empty-state", "Empty state", "空状态", ["no data", "blank slate"], ["暂无数据", "空白页"]],
  ["error-state", "Error state", "错误状态", ["error page", "failure"], ["错误页", "异常"]],
  // Data display
  ["table", "Table", "表格", ["data table", "rows"], ["数据表"]],
  ["data-grid", "Data grid", "数据网格", ["spreadsheet", "editable table"], ["可编辑表格"]],
  ["list", "List", "列表", ["items", "list view"], ["列表项"]],
  ["tree", "Tree view", "树形控件", ["tree", "hierarchy"], ["树", "层级"]],
  ["avatar", "Avatar", "头像", ["profile picture", "user image"], ["用户头像"]],
  ["tag", "Tag", "标签", ["chip", "label", "pill"], ["标记"]],
  ["icon", "Icon", "图标", ["glyph", "symbol"], ["符号"]],
  ["image", "Image", "图片", ["picture", "photo"], ["图像", "照片"]],
  ["video-player", "Video player", "视频播放器", ["video", "media"], ["视频"]],
  ["chart", "Chart", "图表", ["graph", "plot"], ["统计图", "数据可视化"]],
  ["statistic", "Statistic", "统计数值", ["kpi", "metric", "number"], ["指标", "数据卡"]],
  ["timeline", "Timeline", "时间轴", ["history", "activity"], ["时间线"]],
  ["calendar", "Calendar", "日历", ["schedule", "month view"], ["日程"]],
  ["description-list", "Description list", "描述列表", ["key value", "details"], ["详情", "键值"]],
  ["code-block", "Code block", "代码块", ["code", "snippet"], ["代码"]],
  ["kanban-board", "Kanban board", "看板", ["board", "columns"], ["任务看板"]],
  ["map", "Map", "地图", ["location", "geo"], ["位置"]],
  ["comment", "Comment", "评论", ["reply", "discussion"], ["留言"]],
  // Page sections
  ["header", "Page header", "页头", ["header", "masthead"], ["页眉", "头部"]],
  ["footer", "Footer", "页脚", ["bottom", "site footer"], ["底部"]],
  ["hero", "Hero section", "首屏主视觉", ["hero", "jumbotron", "splash"], ["首屏", "主视觉"]],
  ["pricing-table", "Pricing table", "价格表", ["plans", "pricing"], ["定价", "套餐"]],
  ["testimonial", "Testimonial", "用户评价", ["quote", "review"], ["客户评价"]],
  ["login-form", "Sign-in form", "登录表单", ["login", "sign in"], ["登录"]],
  ["cookie-consent", "Cookie consent", "Cookie 同意提示", ["cookies", "privacy banner"], ["隐私提示"]],
];

function freezeEntry([id, en, zhCN, enKeywords, zhKeywords]: Row): CatalogEntry {
  return Object.freeze({
    id,
    en,
    zhCN,
    keywords: Object.freeze({ en: Object.freeze([...enKeywords]), zhCN: Object.freeze([...zhKeywords]) }),
  });
}

/** Every built-in component type, in display order; frozen all the way down. */
export const COMPONENT_CATALOG: readonly CatalogEntry[] = Object.freeze(ROWS.map(freezeEntry));

const BY_ID: ReadonlyMap<string, CatalogEntry> = new Map(COMPONENT_CATALOG.map((e) => [e.id, e]));

/** The entry with this id, so a stored `componentType` can be shown in the reviewer's language. */
export function catalogEntry(id: string): CatalogEntry | undefined {
  return BY_ID.get(id);
}

/** An entry's display name in a locale (the overlay only speaks `en` and `zh-CN`). */
export function catalogName(entry: CatalogEntry, locale: "en" | "zh-CN"): string {
  return locale === "zh-CN" ? entry.zhCN : entry.en;
}
