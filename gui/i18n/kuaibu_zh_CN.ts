<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CategoryDialog</name>
    <message>
        <location filename="../main_window.py" line="92"/>
        <source>Change category</source>
        <translation>修改分类</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="97"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="98"/>
        <source>Subcategory</source>
        <translation>子分类</translation>
    </message>
</context>
<context>
    <name>IntakePanel</name>
    <message>
        <location filename="../intake_panel.py" line="53"/>
        <location filename="../intake_panel.py" line="64"/>
        <source>Add links</source>
        <translation>添加链接</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="57"/>
        <source>Paste or drop links here: chat messages, Markdown, a .txt file, a bookmarks export…</source>
        <translation>在此粘贴或拖入链接：聊天记录、Markdown、.txt 文件、浏览器书签导出…</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="71"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="72"/>
        <source>Subcategory</source>
        <translation>子分类</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="96"/>
        <source>Added %1, duplicates %2, rejected %3</source>
        <translation>新增 %1，重复 %2，拒绝 %3</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="100"/>
        <source>Duplicate of #%1: %2</source>
        <translation>与 #%1 重复：%2</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="102"/>
        <source>Rejected %1: %2</source>
        <translation>已拒绝 %1：%2</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../main_window.py" line="144"/>
        <source>Kuaibu</source>
        <translation>快捕</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="178"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="148"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="149"/>
        <location filename="../main_window.py" line="710"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="150"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="151"/>
        <source>Retry failed</source>
        <translation>重试失败项</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="170"/>
        <source>Filter by text…</source>
        <translation>按文字筛选…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="177"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="179"/>
        <source>Domain</source>
        <translation>域名</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="209"/>
        <source>Run selected</source>
        <translation>运行所选</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="210"/>
        <source>Clean again</source>
        <translation>重新清洗</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="211"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="212"/>
        <source>Change category…</source>
        <translation>修改分类…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="213"/>
        <source>Open source URL</source>
        <translation>打开原始网址</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="214"/>
        <source>Open clean page</source>
        <translation>打开清洗后的页面</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="215"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="224"/>
        <source>Selected</source>
        <translation>所选</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="233"/>
        <source>Everything, one book</source>
        <translation>全部，合成一本</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="234"/>
        <source>One book per category</source>
        <translation>每个分类一本</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="235"/>
        <source>Category in the filter</source>
        <translation>筛选中的分类</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="236"/>
        <source>Selected tasks</source>
        <translation>所选任务</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="237"/>
        <source>Build EPUB</source>
        <translation>生成 EPUB</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="239"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="240"/>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="256"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="257"/>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="278"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="279"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="280"/>
        <source>Show archive folder</source>
        <translation>打开归档文件夹</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="282"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="283"/>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="284"/>
        <source>Site &amp;rules…</source>
        <translation>站点规则(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="338"/>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="349"/>
        <source>Kuaibu — %1</source>
        <translation>快捕 — %1</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="350"/>
        <source>%1 tasks in %2</source>
        <translation>%2 中共 %1 个任务</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="373"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="415"/>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="424"/>
        <source>Cleaning %1 pages again…</source>
        <translation>正在重新清洗 %1 个页面…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="158"/>
        <location filename="../main_window.py" line="465"/>
        <source>fetched %1 · cleaned %2 · localized %3 · failed %4</source>
        <translation>已抓取 %1 · 已清洗 %2 · 已本地化 %3 · 失败 %4</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="471"/>
        <source>%1/s, ETA %2</source>
        <translation>%1 篇/秒，预计剩余 %2</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="478"/>
        <source>Finished %1 of %2, %3 failed</source>
        <translation>已完成 %1 / %2，失败 %3</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="634"/>
        <source>No stored pages of %1 yet.</source>
        <translation>%1 还没有已抓取的页面。</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="661"/>
        <source>Choose a category in the filter first.</source>
        <translation>请先在筛选中选择一个分类。</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="668"/>
        <source>Building…</source>
        <translation>正在生成…</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="675"/>
        <source>Building… %1/%2</source>
        <translation>正在生成… %1/%2</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="681"/>
        <source>%1 articles in %2</source>
        <translation>%1 篇文章，写入 %2</translation>
    </message>
    <message>
        <location filename="../main_window.py" line="710"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
</context>
<context>
    <name>PreviewPane</name>
    <message>
        <location filename="../preview.py" line="108"/>
        <location filename="../preview.py" line="167"/>
        <source>Select a task to see its article.</source>
        <translation>选择一个任务以查看其文章。</translation>
    </message>
    <message>
        <location filename="../preview.py" line="114"/>
        <source>The raw page&apos;s text appears here once fetched.</source>
        <translation>页面抓取后，其原始文字显示在这里。</translation>
    </message>
    <message>
        <location filename="../preview.py" line="116"/>
        <source>As in the book</source>
        <translation>书中效果</translation>
    </message>
    <message>
        <location filename="../preview.py" line="117"/>
        <source>Raw page text (what was cut)</source>
        <translation>原始页面文字（被裁掉的部分）</translation>
    </message>
    <message>
        <location filename="../preview.py" line="135"/>
        <source>found on a retry that kept sidebars and widgets</source>
        <translation>重试时保留侧栏和小部件后找到</translation>
    </message>
    <message>
        <location filename="../preview.py" line="136"/>
        <source>found on a retry that ignored class names</source>
        <translation>重试时忽略类名后找到</translation>
    </message>
    <message>
        <location filename="../preview.py" line="137"/>
        <source>found on a retry that kept every block</source>
        <translation>重试时保留所有区块后找到</translation>
    </message>
    <message>
        <location filename="../preview.py" line="138"/>
        <source>no block stood out: every prose line of the page</source>
        <translation>没有突出的区块：取页面中所有成句的文字</translation>
    </message>
    <message>
        <location filename="../preview.py" line="139"/>
        <source>the page&apos;s few words, all it holds</source>
        <translation>页面仅有的几句话</translation>
    </message>
    <message>
        <location filename="../preview.py" line="148"/>
        <source>%1 characters, confidence %2</source>
        <translation>%1 字，置信度 %2</translation>
    </message>
    <message>
        <location filename="../preview.py" line="161"/>
        <source>Not cleaned yet.</source>
        <translation>尚未清洗。</translation>
    </message>
</context>
<context>
    <name>RulesEditor</name>
    <message>
        <location filename="../rules_editor.py" line="89"/>
        <source>Site rules — %1</source>
        <translation>站点规则 — %1</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="98"/>
        <source>A domain (covers its sub-domains) or &apos;default&apos;</source>
        <translation>域名（包含其子域名）或 &apos;default&apos;</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="108"/>
        <source>Write to YAML</source>
        <translation>写入 YAML</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="110"/>
        <source>Pick content</source>
        <translation>拾取正文</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="111"/>
        <source>Suggest a content selector from the extractor&apos;s choice</source>
        <translation>根据提取器的选择建议正文选择器</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="114"/>
        <source>Domain</source>
        <translation>域名</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="115"/>
        <source>Content selector</source>
        <translation>正文选择器</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="116"/>
        <source>Also remove</source>
        <translation>额外移除</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="117"/>
        <source>Cookies</source>
        <translation>Cookies</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="118"/>
        <source>Encoding</source>
        <translation>编码</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="135"/>
        <source>Test on this task</source>
        <translation>在此任务上测试</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="137"/>
        <source>Apply to domain</source>
        <translation>应用到整个域名</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="139"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="175"/>
        <source>Line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="183"/>
        <source>Valid</source>
        <translation>有效</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="222"/>
        <source>Select a task</source>
        <translation>请选择一个任务</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="260"/>
        <source>Section %1 is written inline; edit it in the text.</source>
        <translation>%1 一节是行内写法，请直接在文本中修改。</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="284"/>
        <source>Select a task whose page has been fetched.</source>
        <translation>请选择一个页面已抓取的任务。</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="295"/>
        <source>test of the rules as typed, not saved</source>
        <translation>按当前输入的规则测试，未保存</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="296"/>
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="307"/>
        <source>Test: “%1”, %2 characters, confidence %3</source>
        <translation>测试结果：“%1”，%2 字，置信度 %3</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="332"/>
        <source>No single element holds the article; write a selector by hand.</source>
        <translation>没有单个元素包含整篇正文，请手动填写选择器。</translation>
    </message>
    <message>
        <location filename="../rules_editor.py" line="336"/>
        <source>Suggested content selector: %1 (Write to YAML to keep it)</source>
        <translation>建议的正文选择器：%1（点“写入 YAML”保留）</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <location filename="../../pipeline/settings.py" line="73"/>
        <source>Connect timeout (s)</source>
        <translation>连接超时（秒）</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="75"/>
        <source>Read timeout (s)</source>
        <translation>读取超时（秒）</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="77"/>
        <source>Retries</source>
        <translation>重试次数</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="83"/>
        <source>Connections per site</source>
        <translation>每个站点的连接数</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="85"/>
        <source>Connections in all</source>
        <translation>总连接数</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="88"/>
        <source>Delay between requests to a site (ms)</source>
        <translation>同一站点请求间隔（毫秒）</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="97"/>
        <source>Largest image edge (px)</source>
        <translation>图片最长边（像素）</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="99"/>
        <source>JPEG quality</source>
        <translation>JPEG 质量</translation>
    </message>
    <message>
        <location filename="../../pipeline/settings.py" line="106"/>
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
        <location filename="../task_model.py" line="88"/>
        <source>pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="88"/>
        <source>running</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="89"/>
        <source>fetched</source>
        <translation>已抓取</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="89"/>
        <source>cleaned</source>
        <translation>已清洗</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="90"/>
        <source>localized</source>
        <translation>已本地化</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="90"/>
        <source>done</source>
        <translation>已成书</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="91"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="91"/>
        <source>duplicate</source>
        <translation>重复</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="92"/>
        <source>needs review</source>
        <translation>需复核</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="95"/>
        <source>network</source>
        <translation>网络</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="95"/>
        <source>HTTP 4xx</source>
        <translation>HTTP 4xx（请求被拒）</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="96"/>
        <source>HTTP 5xx</source>
        <translation>HTTP 5xx（服务器出错）</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="96"/>
        <source>redirect</source>
        <translation>重定向</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="97"/>
        <source>bad link</source>
        <translation>无效链接</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="97"/>
        <source>not HTML</source>
        <translation>非 HTML 页面</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="98"/>
        <source>too large</source>
        <translation>过大</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="99"/>
        <source>anti-bot page</source>
        <translation>反爬验证页</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="100"/>
        <source>cut short</source>
        <translation>内容不完整</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="100"/>
        <source>no article</source>
        <translation>未找到正文</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="101"/>
        <source>rules</source>
        <translation>规则</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="101"/>
        <source>internal error</source>
        <translation>内部错误</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="102"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="105"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="105"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="105"/>
        <source>Domain</source>
        <translation>域名</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="106"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="106"/>
        <source>Subcategory</source>
        <translation>子分类</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="107"/>
        <source>Fetched</source>
        <translation>抓取时间</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="107"/>
        <source>Characters</source>
        <translation>字数</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="108"/>
        <source>Images</source>
        <translation>图片</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="108"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="202"/>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="288"/>
        <source>Needs review: extraction confidence %1</source>
        <translation>需要复核：提取置信度 %1</translation>
    </message>
</context>
</TS>
