<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CategoryDialog</name>
    <message>
        <location filename="../main_window.py" line="81"/>
        <source>Change category</source>
        <translation>修改分类</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="86"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="87"/>
        <source>Subcategory</source>
        <translation>子分类</translation>
    </message>
</context>
<context>
    <name>IntakePanel</name>
    <message>
        <location filename="../intake_panel.py" line="51"/>
        <location filename="../intake_panel.py" line="62"/>
        <source>Add links</source>
        <translation>添加链接</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="55"/>
        <source>Paste or drop links here: chat messages, Markdown, a .txt file, a bookmarks export…</source>
        <translation>在此粘贴或拖入链接：聊天记录、Markdown、.txt 文件、浏览器书签导出…</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="69"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="70"/>
        <source>Subcategory</source>
        <translation>子分类</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="94"/>
        <source>Added %1, duplicates %2, rejected %3</source>
        <translation>新增 %1，重复 %2，拒绝 %3</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="98"/>
        <source>Duplicate of #%1: %2</source>
        <translation>与 #%1 重复：%2</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="100"/>
        <source>Rejected %1: %2</source>
        <translation>已拒绝 %1：%2</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../main_window.py" line="138"/>
        <source>Kuaibu</source>
        <translation>快捕</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="172"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="142"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="143"/>
        <location filename="../main_window.py" line="753"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="144"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="145"/>
        <source>Retry failed</source>
        <translation>重试失败项</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="164"/>
        <source>Filter by text…</source>
        <translation>按文字筛选…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="171"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="173"/>
        <source>Domain</source>
        <translation>域名</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="203"/>
        <source>Run selected</source>
        <translation>运行所选</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="204"/>
        <source>Clean again</source>
        <translation>重新清洗</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="205"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="206"/>
        <source>Change category…</source>
        <translation>修改分类…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="207"/>
        <source>Open source URL</source>
        <translation>打开原始网址</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="208"/>
        <source>Open clean page</source>
        <translation>打开清洗后的页面</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="209"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="218"/>
        <source>Selected</source>
        <translation>所选</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="227"/>
        <source>Everything, one book</source>
        <translation>全部，合成一本</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="228"/>
        <source>One book per category</source>
        <translation>每个分类一本</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="229"/>
        <source>Category in the filter</source>
        <translation>筛选中的分类</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="230"/>
        <source>Selected tasks</source>
        <translation>所选任务</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="231"/>
        <source>Build EPUB</source>
        <translation>生成 EPUB</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="233"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="234"/>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="250"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="251"/>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="272"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="273"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="274"/>
        <source>Show archive folder</source>
        <translation>打开归档文件夹</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="276"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="277"/>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="278"/>
        <source>Site &amp;rules…</source>
        <translation>站点规则(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="338"/>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="350"/>
        <source>Kuaibu — %1</source>
        <translation>快捕 — %1</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="351"/>
        <source>%1 tasks in %2</source>
        <translation>%2 中共 %1 个任务</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="409"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="460"/>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="469"/>
        <source>Cleaning %1 pages again…</source>
        <translation>正在重新清洗 %1 个页面…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="152"/>
        <location filename="../main_window.py" line="506"/>
        <source>fetched %1 · cleaned %2 · localized %3 · failed %4</source>
        <translation>已抓取 %1 · 已清洗 %2 · 已本地化 %3 · 失败 %4</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="512"/>
        <source>%1/s, ETA %2</source>
        <translation>%1 篇/秒，预计剩余 %2</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="519"/>
        <source>Finished %1 of %2, %3 failed</source>
        <translation>已完成 %1 / %2，失败 %3</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="678"/>
        <source>No stored pages of %1 yet.</source>
        <translation>%1 还没有已抓取的页面。</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="704"/>
        <source>Choose a category in the filter first.</source>
        <translation>请先在筛选中选择一个分类。</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="710"/>
        <source>Building…</source>
        <translation>正在生成…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="717"/>
        <source>Building… %1/%2</source>
        <translation>正在生成… %1/%2</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="723"/>
        <source>%1 articles in %2</source>
        <translation>%1 篇文章，写入 %2</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="753"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
</context>
<context>
    <name>PreviewPane</name>
    <message>
        <location filename="../preview.py" line="32"/>
        <location filename="../preview.py" line="93"/>
        <source>Select a task to see its article.</source>
        <translation>选择一个任务以查看其文章。</translation>
    </message>
    <message>
        <location filename="../preview.py" line="38"/>
        <source>The raw page&apos;s text appears here once fetched.</source>
        <translation>页面抓取后，其原始文字显示在这里。</translation>
    </message>
    <message>
        <location filename="../preview.py" line="40"/>
        <source>As in the book</source>
        <translation>书中效果</translation>
    </message>
    <message>
        <location filename="../preview.py" line="41"/>
        <source>Raw page text (what was cut)</source>
        <translation>原始页面文字（被裁掉的部分）</translation>
    </message>
    <message>
        <location filename="../preview.py" line="59"/>
        <source>found on a retry that kept sidebars and widgets</source>
        <translation>重试时保留侧栏和小部件后找到</translation>
    </message>
    <message>
        <location filename="../preview.py" line="60"/>
        <source>found on a retry that ignored class names</source>
        <translation>重试时忽略类名后找到</translation>
    </message>
    <message>
        <location filename="../preview.py" line="61"/>
        <source>found on a retry that kept every block</source>
        <translation>重试时保留所有区块后找到</translation>
    </message>
    <message>
        <location filename="../preview.py" line="62"/>
        <source>no block stood out: every prose line of the page</source>
        <translation>没有突出的区块：取页面中所有成句的文字</translation>
    </message>
    <message>
        <location filename="../preview.py" line="63"/>
        <source>the page&apos;s few words, all it holds</source>
        <translation>页面仅有的几句话</translation>
    </message>
    <message>
        <location filename="../preview.py" line="72"/>
        <source>%1 characters, confidence %2</source>
        <translation>%1 字，置信度 %2</translation>
    </message>
    <message>
        <location filename="../preview.py" line="87"/>
        <source>Not cleaned yet.</source>
        <translation>尚未清洗。</translation>
    </message>
</context>
<context>
    <name>RulesEditor</name>
    <message>
        <location filename="../rules_editor.py" line="88"/>
        <source>Site rules — %1</source>
        <translation>站点规则 — %1</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="96"/>
        <source>A domain (covers its sub-domains) or &apos;default&apos;</source>
        <translation>域名（包含其子域名）或 &apos;default&apos;</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="106"/>
        <source>Write to YAML</source>
        <translation>写入 YAML</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="108"/>
        <source>Pick content</source>
        <translation>拾取正文</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="109"/>
        <source>Suggest a content selector from the extractor&apos;s choice</source>
        <translation>根据提取器的选择建议正文选择器</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="112"/>
        <source>Domain</source>
        <translation>域名</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="113"/>
        <source>Content selector</source>
        <translation>正文选择器</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="114"/>
        <source>Also remove</source>
        <translation>额外移除</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="115"/>
        <source>Cookies</source>
        <translation>Cookies</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="116"/>
        <source>Encoding</source>
        <translation>编码</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="133"/>
        <source>Test on this task</source>
        <translation>在此任务上测试</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="135"/>
        <source>Apply to domain</source>
        <translation>应用到整个域名</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="137"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="173"/>
        <source>Line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="181"/>
        <source>Valid</source>
        <translation>有效</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="220"/>
        <source>Select a task</source>
        <translation>请选择一个任务</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="258"/>
        <source>Section %1 is written inline; edit it in the text.</source>
        <translation>%1 一节是行内写法，请直接在文本中修改。</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="282"/>
        <source>Select a task whose page has been fetched.</source>
        <translation>请选择一个页面已抓取的任务。</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="293"/>
        <source>test of the rules as typed, not saved</source>
        <translation>按当前输入的规则测试，未保存</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="294"/>
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="304"/>
        <source>Test: “%1”, %2 characters, confidence %3</source>
        <translation>测试结果：“%1”，%2 字，置信度 %3</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="326"/>
        <source>No single element holds the article; write a selector by hand.</source>
        <translation>没有单个元素包含整篇正文，请手动填写选择器。</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="330"/>
        <source>Suggested content selector: %1 (Write to YAML to keep it)</source>
        <translation>建议的正文选择器：%1（点“写入 YAML”保留）</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <location filename="../../pipeline/settings.py" line="75"/>
        <source>Connect timeout (s)</source>
        <translation>连接超时（秒）</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="77"/>
        <source>Read timeout (s)</source>
        <translation>读取超时（秒）</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="79"/>
        <source>Retries</source>
        <translation>重试次数</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="87"/>
        <source>Page deadline (s)</source>
        <translation>网页最长用时（秒）</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="89"/>
        <source>Image deadline (s)</source>
        <translation>图片最长用时（秒）</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="96"/>
        <source>Connections per site</source>
        <translation>每个站点的连接数</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="98"/>
        <source>Connections in all</source>
        <translation>总连接数</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="101"/>
        <source>Delay between requests to a site (ms)</source>
        <translation>同一站点请求间隔（毫秒）</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="110"/>
        <source>Largest image edge (px)</source>
        <translation>图片最长边（像素）</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="112"/>
        <source>JPEG quality</source>
        <translation>JPEG 质量</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="119"/>
        <source>EPUB size budget (MB)</source>
        <translation>EPUB 体积上限（MB）</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../settings_dialog.py" line="76"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="109"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="80"/>
        <location filename="../settings_dialog.py" line="118"/>
        <source>Archive folder</source>
        <translation>归档文件夹</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="84"/>
        <source>cookies.txt exported from a browser</source>
        <translation>从浏览器导出的 cookies.txt</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="82"/>
        <location filename="../settings_dialog.py" line="124"/>
        <source>Cookies file</source>
        <translation>Cookie 文件</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="92"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="97"/>
        <source>Language</source>
        <translation>界面语言</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="98"/>
        <source>A new language applies from the next start.</source>
        <translation>新的界面语言在下次启动时生效。</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="126"/>
        <source>Cookies (*.txt);;All files (*)</source>
        <translation>Cookie 文件 (*.txt);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>TaskTableModel</name>
    <message>
        <location filename="../task_model.py" line="92"/>
        <source>pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="92"/>
        <source>running</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="93"/>
        <source>fetched</source>
        <translation>已抓取</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="93"/>
        <source>cleaned</source>
        <translation>已清洗</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="94"/>
        <source>localized</source>
        <translation>已本地化</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="94"/>
        <source>done</source>
        <translation>已成书</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="95"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="95"/>
        <source>duplicate</source>
        <translation>重复</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="96"/>
        <source>needs review</source>
        <translation>需复核</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="99"/>
        <source>network</source>
        <translation>网络</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="99"/>
        <source>HTTP 4xx</source>
        <translation>HTTP 4xx（请求被拒）</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="100"/>
        <source>HTTP 5xx</source>
        <translation>HTTP 5xx（服务器出错）</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="100"/>
        <source>redirect</source>
        <translation>重定向</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="101"/>
        <source>bad link</source>
        <translation>无效链接</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="102"/>
        <source>blocked address</source>
        <translation>禁止的地址</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="103"/>
        <source>not HTML</source>
        <translation>非 HTML 页面</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="104"/>
        <source>too large</source>
        <translation>过大</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="105"/>
        <source>anti-bot page</source>
        <translation>反爬验证页</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="106"/>
        <source>cut short</source>
        <translation>内容不完整</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="106"/>
        <source>no article</source>
        <translation>未找到正文</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="107"/>
        <source>rules</source>
        <translation>规则</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="107"/>
        <source>internal error</source>
        <translation>内部错误</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="108"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="111"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="111"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="111"/>
        <source>Domain</source>
        <translation>域名</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="112"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="112"/>
        <source>Subcategory</source>
        <translation>子分类</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="113"/>
        <source>Fetched</source>
        <translation>抓取时间</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="113"/>
        <source>Characters</source>
        <translation>字数</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="114"/>
        <source>Images</source>
        <translation>图片</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="114"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="229"/>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="315"/>
        <source>Needs review: extraction confidence %1</source>
        <translation>需要复核：提取置信度 %1</translation>
    </message>
</context>
</TS>
