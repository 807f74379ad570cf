<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BookReader</name>
    <message>
        <location filename="../reader/view.py" line="111"/>
        <source>Contents</source>
        <translation>目录</translation>
    </message>
    <message>
        <location filename="../reader/view.py" line="117"/>
        <source>‹ Previous</source>
        <translation>‹ 上一章</translation>
    </message>
    <message>
        <location filename="../reader/view.py" line="118"/>
        <source>Next ›</source>
        <translation>下一章 ›</translation>
    </message>
    <message>
        <location filename="../reader/view.py" line="227"/>
        <source>%1 of %2</source>
        <translation>第 %1 / %2 章</translation>
    </message>
</context>
<context>
    <name>BooksView</name>
    <message>
        <location filename="../books_view.py" line="41"/>
        <source>Book</source>
        <translation>电子书</translation>
    </message>
    <message>
        <location filename="../books_view.py" line="41"/>
        <source>Articles</source>
        <translation>文章数</translation>
    </message>
    <message>
        <location filename="../books_view.py" line="41"/>
        <source>Built</source>
        <translation>生成时间</translation>
    </message>
    <message>
        <location filename="../books_view.py" line="42"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../books_view.py" line="45"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../books_view.py" line="80"/>
        <source>up to date</source>
        <translation>最新</translation>
    </message>
    <message>
        <location filename="../books_view.py" line="82"/>
        <source>out of date: built before books were dated</source>
        <translation>已过期：生成于记录时间之前</translation>
    </message>
    <message>
        <location filename="../books_view.py" line="84"/>
        <source>%1 added</source>
        <translation>新增 %1 篇</translation>
    </message>
    <message>
        <location filename="../books_view.py" line="84"/>
        <source>%1 gone</source>
        <translation>移除 %1 篇</translation>
    </message>
    <message>
        <location filename="../books_view.py" line="85"/>
        <source>%1 cleaned again</source>
        <translation>重新清洗 %1 篇</translation>
    </message>
    <message>
        <location filename="../books_view.py" line="86"/>
        <source>%1 retitled</source>
        <translation>改了标题 %1 篇</translation>
    </message>
    <message>
        <location filename="../books_view.py" line="87"/>
        <source>out of date: %1 since</source>
        <translation>已过期：此后%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../books_view.py" line="104"/>
        <source>%n books, %1 out of date</source>
        <translation>
            <numerusform>%n 本电子书，%1 本已过期</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../books_view.py" line="106"/>
        <source>No books yet: Build EPUB binds them.</source>
        <translation>还没有电子书：点“生成 EPUB”来制作。</translation>
    </message>
</context>
<context>
    <name>BuildBar</name>
    <message>
        <location filename="../build_bar.py" line="49"/>
        <source>Everything, one book</source>
        <translation>全部，合成一本</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="50"/>
        <source>One book per category</source>
        <translation>每个分类一本</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="51"/>
        <source>Category in the filter</source>
        <translation>筛选中的分类</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="52"/>
        <source>Selected tasks</source>
        <translation>所选任务</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="55"/>
        <source>The book&apos;s title, its file name too (a category&apos;s book: this title and the category)</source>
        <translation>书名，也是文件名（按分类成书时：此书名加分类名）</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="59"/>
        <source>The chapters&apos; order inside each category</source>
        <translation>每个分类内各章的顺序</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="60"/>
        <source>Task list order</source>
        <translation>按任务列表顺序</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="60"/>
        <source>By published date</source>
        <translation>按发布日期</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="61"/>
        <source>By title</source>
        <translation>按标题</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="65"/>
        <source>EPUB</source>
        <translation>EPUB</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="66"/>
        <source>PDF</source>
        <translation>PDF</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="67"/>
        <source>EPUB and PDF</source>
        <translation>EPUB 和 PDF</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="73"/>
        <source>Cancel the build</source>
        <translation>取消生成</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="102"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="117"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="179"/>
        <source>The CHM project is in %1 but not compiled: install chmcmd (apt-get install fp-utils) and build again</source>
        <translation>CHM 工程已写到 %1，但未编译：请安装 chmcmd（apt-get install fp-utils）后重新生成</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="189"/>
        <source>Build cancelled</source>
        <translation>已取消生成</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="104"/>
        <source>Build PDF</source>
        <translation>生成 PDF</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="104"/>
        <source>Build EPUB and PDF</source>
        <translation>生成 EPUB 和 PDF</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="106"/>
        <source>Build EPUB</source>
        <translation>生成 EPUB</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="81"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="68"/>
        <source>CHM (Windows Help)</source>
        <translation>CHM（Windows 帮助）</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="69"/>
        <source>What to bind: EPUB books, PDFs for print and archiving (PDF/A), both, or a CHM for Windows&apos; own Help viewer</source>
        <translation>生成什么：EPUB 电子书、用于打印和归档的 PDF（PDF/A）、两者都要，或用 Windows 自带帮助查看器打开的 CHM</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="82"/>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="105"/>
        <source>Build CHM</source>
        <translation>生成 CHM</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="142"/>
        <source>Choose a category in the filter first.</source>
        <translation>请先在筛选中选择一个分类。</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="153"/>
        <source>Building…</source>
        <translation>正在生成…</translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="164"/>
        <source>Building… %1/%2</source>
        <translation>正在生成… %1/%2</translation>
    </message>
    <message numerus="yes">
        <location filename="../build_bar.py" line="170"/>
        <source>%n articles in %1</source>
        <translation>
            <numerusform>%n 篇文章，写入 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../build_bar.py" line="173"/>
        <source>; %n near duplicates left out (see Duplicates)</source>
        <translation>
            <numerusform>；%n 篇近似重复未收入（见“重复”）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../build_bar.py" line="176"/>
        <source>#%1 left out of the book: it nearly repeats #%2</source>
        <translation>#%1 未收入电子书：与 #%2 近似重复</translation>
    </message>
</context>
<context>
    <name>CategoryDialog</name>
    <message>
        <location filename="../main_window/task_actions.py" line="36"/>
        <source>Change category</source>
        <translation>修改分类</translation>
    </message>
    <message>
        <location filename="../main_window/task_actions.py" line="41"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../main_window/task_actions.py" line="42"/>
        <source>Subcategory</source>
        <translation>子分类</translation>
    </message>
</context>
<context>
    <name>CategoryTree</name>
    <message>
        <location filename="../category_tree.py" line="224"/>
        <source>Tasks: %1</source>
        <translation>任务：%1</translation>
    </message>
    <message>
        <location filename="../category_tree.py" line="224"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../category_tree.py" line="366"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../category_tree.py" line="369"/>
        <source>Uncategorized</source>
        <translation>未分类</translation>
    </message>
</context>
<context>
    <name>ContentPicker</name>
    <message>
        <location filename="../rules_editor/pick_content.py" line="70"/>
        <source>Pick content</source>
        <translation>拾取正文</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="72"/>
        <source>Propose a content selector for the element that holds the article, or choose the element in the page&apos;s element tree</source>
        <translation>为包含正文的元素建议一个正文选择器，或在页面的元素树中选择该元素</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="75"/>
        <source>Pick content proposes a selector for the element that holds the article; or choose the element below. Its selector goes into Content selector.</source>
        <translation>“拾取正文”会为包含正文的元素建议一个选择器；也可以在下面选择元素。它的选择器会填入“正文选择器”。</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="81"/>
        <source>Element</source>
        <translation>元素</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="81"/>
        <source>Characters</source>
        <translation>字数</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="82"/>
        <source>Text</source>
        <translation>文字</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="95"/>
        <source>Select a task whose page has been fetched.</source>
        <translation>请选择一个页面已抓取的任务。</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="107"/>
        <source>Looking for the element that holds the article…</source>
        <translation>正在查找包含正文的元素…</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="138"/>
        <source>No article to look for on this page: %1</source>
        <translation>此页面上没有可查找的正文：%1</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="154"/>
        <source>Naming the element…</source>
        <translation>正在为元素生成选择器…</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="166"/>
        <source>No selector to propose.</source>
        <translation>没有可建议的选择器。</translation>
    </message>
    <message numerus="yes">
        <location filename="../rules_editor/pick_content.py" line="169"/>
        <source>It finds an article on %1 of the %n other archived pages of %2.</source>
        <translation>
            <numerusform>它在 %2 的其他 %n 个已归档页面中的 %1 个上找到了正文。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="173"/>
        <source>There are no other archived pages of %1 to check it on.</source>
        <translation>%1 没有其他已归档的页面可供检验。</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="176"/>
        <source>Proposed content selector: %1</source>
        <translation>建议的正文选择器：%1</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="184"/>
        <source>Its element holds the whole article.</source>
        <translation>它的元素包含整篇正文。</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="185"/>
        <source>Its element holds the whole article, but much of its text is something else (strip rules can remove it).</source>
        <translation>它的元素包含整篇正文，但其中不少文字是别的内容（可以用移除规则去掉）。</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="187"/>
        <source>No single element holds the whole article: this one holds %1 of its text.</source>
        <translation>没有单个元素包含整篇正文：这个元素包含其中 %1 的文字。</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="189"/>
        <source>The element holds %1 of the article&apos;s text.</source>
        <translation>该元素包含正文 %1 的文字。</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="191"/>
        <source>The element you picked.</source>
        <translation>你选择的元素。</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="192"/>
        <source>The article&apos;s text is too short or not on this page.</source>
        <translation>正文太短，或不在此页面上。</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="193"/>
        <source>No element inside the page&apos;s body holds much of the article: its paragraphs stand in the body itself.</source>
        <translation>页面 body 内没有哪个元素包含大部分正文：正文段落直接位于 body 中。</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="195"/>
        <source>No element of the page is at this place, or it is never shown.</source>
        <translation>页面上此位置没有元素，或该元素从不显示。</translation>
    </message>
    <message>
        <location filename="../rules_editor/pick_content.py" line="197"/>
        <source>No selector without positions names just this element.</source>
        <translation>没有不依赖位置的选择器能唯一指向这个元素。</translation>
    </message>
</context>
<context>
    <name>DomainTrial</name>
    <message>
        <location filename="../rules_editor/domain_trial.py" line="63"/>
        <source>Test on this domain lists each stored page of the domain before and after the rules, the ones that got worse first.</source>
        <translation>“在整个域名上测试”会列出该域名每个已保存页面在规则前后的结果，变差的排在前面。</translation>
    </message>
    <message>
        <location filename="../rules_editor/domain_trial.py" line="69"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../rules_editor/domain_trial.py" line="69"/>
        <source>Before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location filename="../rules_editor/domain_trial.py" line="69"/>
        <source>After</source>
        <translation>之后</translation>
    </message>
    <message>
        <location filename="../rules_editor/domain_trial.py" line="70"/>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <location filename="../rules_editor/domain_trial.py" line="71"/>
        <source>Characters (confidence) of the stored article</source>
        <translation>已保存文章的字数（置信度）</translation>
    </message>
    <message>
        <location filename="../rules_editor/domain_trial.py" line="73"/>
        <source>Characters (confidence) under these rules</source>
        <translation>按这些规则得到的字数（置信度）</translation>
    </message>
    <message>
        <location filename="../rules_editor/domain_trial.py" line="86"/>
        <source>every site</source>
        <translation>所有网站</translation>
    </message>
    <message>
        <location filename="../rules_editor/domain_trial.py" line="109"/>
        <source>Testing the rules on the stored pages of %1…</source>
        <translation>正在用规则测试 %1 已保存的页面…</translation>
    </message>
    <message>
        <location filename="../rules_editor/domain_trial.py" line="140"/>
        <source>No stored pages of %1 yet.</source>
        <translation>%1 还没有已抓取的页面。</translation>
    </message>
    <message numerus="yes">
        <location filename="../rules_editor/domain_trial.py" line="147"/>
        <source>%n stored pages of %1: %2 would lose their article, %3 get shorter, %4 longer.</source>
        <translation>
            <numerusform>%1 的 %n 个已保存页面：%2 个将失去正文，%3 个变短，%4 个变长。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../rules_editor/domain_trial.py" line="151"/>
        <source>no article</source>
        <translation>未找到正文</translation>
    </message>
</context>
<context>
    <name>Drops</name>
    <message>
        <location filename="../drops.py" line="61"/>
        <source>Nothing in what was dropped is text or a link</source>
        <translation>拖入的内容里没有文字或链接</translation>
    </message>
    <message>
        <location filename="../drops.py" line="76"/>
        <source>%1: not a list of links</source>
        <translation>%1：不是链接列表</translation>
    </message>
    <message>
        <location filename="../drops.py" line="84"/>
        <source>%1: cannot be read (%2)</source>
        <translation>%1：无法读取（%2）</translation>
    </message>
    <message>
        <location filename="../drops.py" line="91"/>
        <source>%1: an Internet Shortcut without a URL= line</source>
        <translation>%1：网页快捷方式里没有 URL= 行</translation>
    </message>
    <message>
        <location filename="../drops.py" line="101"/>
        <location filename="../drops.py" line="105"/>
        <source>%1: no links in it</source>
        <translation>%1：里面没有链接</translation>
    </message>
</context>
<context>
    <name>DuplicatesView</name>
    <message>
        <location filename="../duplicates_view.py" line="128"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="130"/>
        <source>Open report</source>
        <translation>打开报告</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="132"/>
        <source>Write 04_logs/near_duplicates.html and .csv and open the page</source>
        <translation>写出 04_logs/near_duplicates.html 和 .csv 并打开该页面</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="138"/>
        <source>IDs</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="138"/>
        <source>First</source>
        <translation>第一篇</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="138"/>
        <source>Second</source>
        <translation>第二篇</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="139"/>
        <source>Distance</source>
        <translation>距离</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="139"/>
        <source>Decision</source>
        <translation>决定</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="140"/>
        <source>First URL</source>
        <translation>第一篇网址</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="140"/>
        <source>Second URL</source>
        <translation>第二篇网址</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="147"/>
        <source>Select a pair to see where the two texts differ.</source>
        <translation>选择一对，查看两篇正文的不同之处。</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="148"/>
        <source>Second is a duplicate of first</source>
        <translation>第二篇是第一篇的重复</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="149"/>
        <source>First is a duplicate of second</source>
        <translation>第一篇是第二篇的重复</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="150"/>
        <location filename="../duplicates_view.py" line="157"/>
        <source>Keep both</source>
        <translation>两篇都保留</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="151"/>
        <location filename="../duplicates_view.py" line="159"/>
        <source>Undecide</source>
        <translation>撤销决定</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="152"/>
        <source>Mark as duplicate</source>
        <translation>标记为重复</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="216"/>
        <source>Looking for near duplicates…</source>
        <translation>正在查找近似重复…</translation>
    </message>
    <message numerus="yes">
        <location filename="../duplicates_view.py" line="234"/>
        <source>%n bits</source>
        <translation>
            <numerusform>%n 位</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../duplicates_view.py" line="249"/>
        <source>%n near-duplicate pairs, %1 to judge.</source>
        <translation>
            <numerusform>%n 对近似重复，%1 对待判断。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../duplicates_view.py" line="251"/>
        <source>%n exact duplicates (the same text under another link) were set aside by the run.</source>
        <translation>
            <numerusform>运行已搁置 %n 个完全重复（同一正文，另一个链接）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../duplicates_view.py" line="321"/>
        <source>%n places differ: struck through in red only in #%1, in green only in #%2.</source>
        <translation>
            <numerusform>有 %n 处不同：红色删除线为仅见于 #%1 的内容，绿色为仅见于 #%2 的内容。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="250"/>
        <source>No near duplicates.</source>
        <translation>没有近似重复。</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="258"/>
        <source>undecided</source>
        <translation>未决定</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="260"/>
        <source>keep both</source>
        <translation>两篇都保留</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="261"/>
        <source>#%1 duplicates #%2</source>
        <translation>#%1 与 #%2 重复</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="300"/>
        <source>Reading the differences…</source>
        <translation>正在读取差异…</translation>
    </message>
    <message>
        <location filename="../duplicates_view.py" line="319"/>
        <source>The two texts have the same words.</source>
        <translation>两篇正文的字词相同。</translation>
    </message>
</context>
<context>
    <name>FailuresView</name>
    <message>
        <location filename="../failures_view.py" line="90"/>
        <source>By kind</source>
        <translation>按类型</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="91"/>
        <source>By domain</source>
        <translation>按域名</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="97"/>
        <source>Retry these</source>
        <translation>重试这些</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="100"/>
        <source>Render with browser…</source>
        <translation>用浏览器渲染…</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="102"/>
        <source>Have the chosen pages&apos; sites rendered by the system&apos;s Chromium from now on (render: browser in rules.yaml), then try these pages again</source>
        <translation>今后用系统的 Chromium 渲染所选页面的网站（rules.yaml 中的 render: browser），然后重试这些页面</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="121"/>
        <source>Select a task to see its reason and fetch log.</source>
        <translation>选择一个任务，查看失败原因和抓取日志。</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="122"/>
        <source>View stored response</source>
        <translation>查看保存的响应</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="196"/>
        <source>Cannot read the failures: %1</source>
        <translation>无法读取失败任务：%1</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="204"/>
        <source>Domain</source>
        <translation>域名</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="204"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="205"/>
        <source>ID</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="205"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="205"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message numerus="yes">
        <location filename="../failures_view.py" line="252"/>
        <source>%n failed tasks</source>
        <translation>
            <numerusform>%n 个失败任务</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="253"/>
        <source>No failed tasks.</source>
        <translation>没有失败的任务。</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="318"/>
        <source>Retry these (%1)</source>
        <translation>重试这些（%1 个）</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="381"/>
        <source>Kind: %1</source>
        <translation>类型：%1</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="382"/>
        <source>Reason: %1</source>
        <translation>原因：%1</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="383"/>
        <source>Fetch log:</source>
        <translation>抓取日志：</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="385"/>
        <source>Reading the fetch log…</source>
        <translation>正在读取抓取日志…</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="387"/>
        <source>No lines about this task in the fetch log.</source>
        <translation>抓取日志中没有这个任务的记录。</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="399"/>
        <source>The site&apos;s answer was not stored.</source>
        <translation>未保存网站的响应。</translation>
    </message>
    <message>
        <location filename="../failures_view.py" line="413"/>
        <source>Reading the stored response…</source>
        <translation>正在读取保存的响应…</translation>
    </message>
</context>
<context>
    <name>FilterState</name>
    <message>
        <location filename="../filter_state.py" line="27"/>
        <source>Show every task (clear the filters)</source>
        <translation>显示全部任务（清除筛选）</translation>
    </message>
    <message>
        <location filename="../filter_state.py" line="38"/>
        <source>filtered: %1 of %2</source>
        <translation>已筛选：%2 个中的 %1 个</translation>
    </message>
    <message numerus="yes">
        <location filename="../filter_state.py" line="40"/>
        <source>%n tasks</source>
        <translation>
            <numerusform>%n 个任务</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>HarvestDialog</name>
    <message>
        <location filename="../harvest_dialog.py" line="56"/>
        <source>Harvest a list page</source>
        <translation>从列表页采集</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="63"/>
        <source>The address of a list page: a channel front page, a blog index, a tag page</source>
        <translation>列表页的地址：频道首页、博客目录、标签页</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="66"/>
        <source>Only links to this site</source>
        <translation>只要本站链接</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="71"/>
        <source>Follow the list&apos;s own “next page” links this many times (下一页, Next, rel=next). The articles found are never crawled further.</source>
        <translation>沿列表自己的“下一页”链接（下一页、Next、rel=next）翻这么多页。找到的文章不会再往下抓取。</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="75"/>
        <source>Optional: a regular expression article links match (e.g. /news/\d+)</source>
        <translation>可选：文章链接要匹配的正则表达式（如 /news/\d+）</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="76"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="82"/>
        <source>Link</source>
        <translation>链接</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="82"/>
        <source>Text</source>
        <translation>文字</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="82"/>
        <source>Rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="83"/>
        <source>Why</source>
        <translation>理由</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="92"/>
        <source>Check all</source>
        <translation>全选</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="93"/>
        <source>Check none</source>
        <translation>全不选</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="94"/>
        <source>Add checked</source>
        <translation>添加勾选的</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="95"/>
        <source>Nothing is added until you press %1.</source>
        <translation>按“%1”之前不会添加任何任务。</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="97"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="103"/>
        <source>List page</source>
        <translation>列表页</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="104"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="105"/>
        <source>Subcategory</source>
        <translation>子分类</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="108"/>
        <source>Next pages</source>
        <translation>翻页数</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="144"/>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="157"/>
        <source>An article page, not a list (%1). %2 adds it as one task.</source>
        <translation>这是文章页，不是列表（%1）。“%2”会把它作为一个任务加入。</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="178"/>
        <source>%1 already in the archive: greyed and left unchecked.</source>
        <translation>%1 个已在归档中：显示为灰色，未勾选。</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="189"/>
        <source>already in the archive: #%1</source>
        <translation>已在归档中：#%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../harvest_dialog.py" line="225"/>
        <source>Adding %n links…</source>
        <translation>
            <numerusform>正在添加 %n 个链接…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="163"/>
        <source>refused: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../harvest_dialog.py" line="169"/>
        <source>A list page (%1): %n links on %2, %3 look like articles and are checked.</source>
        <translation>
            <numerusform>列表页（%1）：%2共 %n 个链接，其中 %3 个像文章，已勾选。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../harvest_dialog.py" line="171"/>
        <source>%n pages</source>
        <translation>
            <numerusform>%n 个页面</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="174"/>
        <source>%1 refused: a public page&apos;s links may not lead to private or loopback addresses.</source>
        <translation>%1 个已拒绝：公开网页上的链接不能指向内网或本机地址。</translation>
    </message>
    <message>
        <location filename="../harvest_dialog.py" line="231"/>
        <source>Added %1 · duplicates %2 · rejected %3</source>
        <translation>已添加 %1 · 重复 %2 · 拒绝 %3</translation>
    </message>
</context>
<context>
    <name>IntakePanel</name>
    <message>
        <location filename="../intake_panel.py" line="93"/>
        <location filename="../intake_panel.py" line="112"/>
        <source>Add links</source>
        <translation>添加链接</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="100"/>
        <source>Paste or drop links here: chat messages, Markdown, a .txt file, a bookmarks export…</source>
        <translation>在此粘贴或拖入链接：聊天记录、Markdown、.txt 文件、浏览器书签导出…</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="129"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="130"/>
        <source>Subcategory</source>
        <translation>子分类</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="197"/>
        <source>Not used from the drop:</source>
        <translation>拖入内容中未使用的：</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="206"/>
        <source>Each bookmark gets its folder as category (the outermost) and subcategory (the ones inside it); links outside any folder get the categories above.</source>
        <translation>每个书签以所在文件夹为分类（最外层为一级分类，内层为二级分类）；不在任何文件夹里的链接使用上面的分类。</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="228"/>
        <source>Added %1 · duplicates %2 · rejected %3</source>
        <translation>已添加 %1 · 重复 %2 · 拒绝 %3</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="257"/>
        <source>Click to select task #%1 in the list</source>
        <translation>点击在列表中选中任务 #%1</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="232"/>
        <source>Duplicate of #%1: %2</source>
        <translation>与 #%1 重复：%2</translation>
    </message>
    <message numerus="yes">
        <location filename="../intake_panel.py" line="203"/>
        <source>File by the bookmarks&apos; folders (%n folders)</source>
        <translation>
            <numerusform>按书签文件夹分类（%n 个文件夹）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="234"/>
        <source>Rejected %1: %2</source>
        <translation>已拒绝 %1：%2</translation>
    </message>
    <message>
        <location filename="../intake_panel.py" line="101"/>
        <source>Ctrl+Enter adds the links. What is here is kept until it is added, across restarts.</source>
        <translation>Ctrl+Enter 添加这些链接。这里的内容在添加之前一直保留，重启后仍在。</translation>
    </message>
</context>
<context>
    <name>KeysHelp</name>
    <message>
        <location filename="../rules_editor/keys_help.py" line="27"/>
        <source>rules.yaml keys</source>
        <translation>rules.yaml 的键</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../main_window/window.py" line="190"/>
        <source>A run is going. Stop it and close? What is left runs next time.</source>
        <translation>正在运行。要停止并关闭吗？剩下的任务下次继续。</translation>
    </message>
</context>
<context>
    <name>PasteArea</name>
    <message>
        <location filename="../intake_panel.py" line="63"/>
        <source>Add the pasted links</source>
        <translation>添加粘贴的链接</translation>
    </message>
</context>
<context>
    <name>PreviewPane</name>
    <message>
        <location filename="../preview.py" line="44"/>
        <location filename="../preview.py" line="145"/>
        <source>Select a task to see its article.</source>
        <translation>选择一个任务以查看其文章。</translation>
    </message>
    <message>
        <location filename="../preview.py" line="46"/>
        <source>Open original</source>
        <translation>打开原文</translation>
    </message>
    <message>
        <location filename="../preview.py" line="47"/>
        <source>Open in book</source>
        <translation>在电子书中打开</translation>
    </message>
    <message>
        <location filename="../preview.py" line="56"/>
        <source>The raw page&apos;s text appears here once fetched.</source>
        <translation>页面抓取后，其原始文字显示在这里。</translation>
    </message>
    <message>
        <location filename="../preview.py" line="58"/>
        <source>Raw page text (what was cut is struck through)</source>
        <translation>原始页面全文（被裁掉的内容加删除线）</translation>
    </message>
    <message>
        <location filename="../preview.py" line="59"/>
        <source>As in the book</source>
        <translation>书中效果</translation>
    </message>
    <message>
        <location filename="../preview.py" line="86"/>
        <source>found on a retry that kept sidebars and widgets</source>
        <translation>重试时保留侧栏和小部件后找到</translation>
    </message>
    <message>
        <location filename="../preview.py" line="87"/>
        <source>found on a retry that ignored class names</source>
        <translation>重试时忽略类名后找到</translation>
    </message>
    <message>
        <location filename="../preview.py" line="88"/>
        <source>found on a retry that kept every block</source>
        <translation>重试时保留所有区块后找到</translation>
    </message>
    <message>
        <location filename="../preview.py" line="89"/>
        <source>no block stood out: every prose line of the page</source>
        <translation>没有突出的区块：取页面中所有成句的文字</translation>
    </message>
    <message>
        <location filename="../preview.py" line="90"/>
        <source>the page&apos;s few words, all it holds</source>
        <translation>页面仅有的几句话</translation>
    </message>
    <message numerus="yes">
        <location filename="../preview.py" line="103"/>
        <source>%n characters, confidence %1</source>
        <translation>
            <numerusform>%n 字，置信度 %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../preview.py" line="120"/>
        <source>Not cleaned yet.</source>
        <translation>尚未清洗。</translation>
    </message>
</context>
<context>
    <name>QAbstractFileIconProvider</name>
    <message>
        <location filename="../language.py" line="27"/>
        <source>Drive</source>
        <translation>驱动器</translation>
    </message>
    <message>
        <location filename="../language.py" line="28"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../language.py" line="29"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../language.py" line="30"/>
        <source>%1 File</source>
        <translation>%1 文件</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <location filename="../language.py" line="25"/>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../language.py" line="26"/>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>Reasons</name>
    <message>
        <location filename="../reasons.py" line="160"/>
        <source>%1 is not a valid CSS selector (%2)</source>
        <translation>%1 不是有效的 CSS 选择器（%2）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="175"/>
        <source>%1 links in repeated blocks (median text %2 characters); the longest text block has %3 characters</source>
        <translation>%1 个链接位于重复的同级块中（链接文字中位数 %2 字符）；最长的文字块有 %3 字符</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="178"/>
        <source>one text block of %1 characters dominates (%2 links in a repeated list)</source>
        <translation>一个 %1 字符的文字块占主导（重复列表中有 %2 个链接）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="180"/>
        <source>no repeated list of links (at least %1 items) and no long text block (%2 characters): taken as one page</source>
        <translation>没有重复的链接列表（至少 %1 项），也没有长文字块（%2 字符）：当作单篇页面</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="183"/>
        <source>text %1 characters</source>
        <translation>文字 %1 字符</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="185"/>
        <source>in the main list (%1 items)</source>
        <translation>在主列表中（%1 项）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="187"/>
        <source>a date in the link</source>
        <translation>链接中有日期</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="189"/>
        <source>a numeric id in the link</source>
        <translation>链接中有数字编号</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="191"/>
        <source>short text</source>
        <translation>文字很短</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="193"/>
        <source>matches article_link_pattern</source>
        <translation>符合 article_link_pattern</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="195"/>
        <source>does not match article_link_pattern</source>
        <translation>不符合 article_link_pattern</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="92"/>
        <source>rendering pages needs Playwright and Chromium: %1 and %2</source>
        <translation>渲染页面需要 Playwright 和 Chromium：%1，以及 %2</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="94"/>
        <source>rendering pages needs Chromium, and there is none at browser_path %1: %2</source>
        <translation>渲染页面需要 Chromium，而 browser_path %1 处没有：%2</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="96"/>
        <source>rendering pages needs Chromium, and none was found (%1): %2</source>
        <translation>渲染页面需要 Chromium，但没有找到（%1）：%2</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="99"/>
        <source>this run has no browser</source>
        <translation>这次运行没有浏览器</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="174"/>
        <source>internal error: %1: %2</source>
        <translation>内部错误：%1：%2</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="161"/>
        <location filename="../reasons.py" line="279"/>
        <source>new rules failed, the article before them is kept: %1</source>
        <translation>新规则失败，保留原来的文章：%1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="280"/>
        <source>internal error: %1</source>
        <translation>内部错误：%1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="104"/>
        <location filename="../reasons.py" line="281"/>
        <source>no article found on the page</source>
        <translation>页面上没有找到正文</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="108"/>
        <location filename="../reasons.py" line="283"/>
        <source>no article even rendered with the browser (%1): the article may wait for a login or a click</source>
        <translation>即使用浏览器渲染也没有正文（%1）：文章可能需要登录或点击后才显示</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="105"/>
        <location filename="../reasons.py" line="286"/>
        <source>the page needs JavaScript (%1): Render with browser in the Failures tab or the rules editor</source>
        <translation>页面需要 JavaScript（%1）：在“失败”标签页或规则编辑器中选择“用浏览器渲染”</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="288"/>
        <source>rendering pages needs %1</source>
        <translation>渲染页面需要 %1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="98"/>
        <location filename="../reasons.py" line="289"/>
        <source>Chromium did not start: %1</source>
        <translation>Chromium 未能启动：%1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="100"/>
        <location filename="../reasons.py" line="291"/>
        <source>not rendered within %1 s (its scripts kept loading)</source>
        <translation>%1 秒内未渲染完（页面脚本一直在加载）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="102"/>
        <location filename="../reasons.py" line="293"/>
        <source>the rendered page is larger than %1 MB</source>
        <translation>渲染后的页面超过 %1 MB</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="64"/>
        <location filename="../reasons.py" line="295"/>
        <source>an anti-bot check page instead of the article</source>
        <translation>网站返回了反爬虫验证页，而不是文章</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="202"/>
        <location filename="../reasons.py" line="296"/>
        <source>the page does not exist (HTTP 404)</source>
        <translation>页面不存在（HTTP 404）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="203"/>
        <location filename="../reasons.py" line="297"/>
        <source>the page was removed (HTTP 410)</source>
        <translation>页面已被删除（HTTP 410）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="201"/>
        <location filename="../reasons.py" line="298"/>
        <source>the site refused access (HTTP 403)</source>
        <translation>网站拒绝访问（HTTP 403）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="200"/>
        <location filename="../reasons.py" line="299"/>
        <source>the page needs a login (HTTP 401)</source>
        <translation>页面需要登录（HTTP 401）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="204"/>
        <location filename="../reasons.py" line="300"/>
        <source>too many requests to the site (HTTP 429)</source>
        <translation>对网站的请求太频繁（HTTP 429）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="206"/>
        <location filename="../reasons.py" line="302"/>
        <source>the site&apos;s server failed (HTTP %1)</source>
        <translation>网站服务器出错（HTTP %1）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="59"/>
        <location filename="../reasons.py" line="60"/>
        <location filename="../reasons.py" line="303"/>
        <source>the site answered HTTP %1</source>
        <translation>网站返回 HTTP %1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="62"/>
        <location filename="../reasons.py" line="305"/>
        <source>not a web page: no type given and no &lt;html&gt; in it</source>
        <translation>不是网页：没有声明类型，内容里也没有 &lt;html&gt;</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="61"/>
        <location filename="../reasons.py" line="306"/>
        <source>not a web page but %1</source>
        <translation>不是网页，而是 %1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="66"/>
        <location filename="../reasons.py" line="308"/>
        <source>the page was cut short: the connection closed before its end</source>
        <translation>页面不完整：连接在页面结束前就断开了</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="68"/>
        <location filename="../reasons.py" line="310"/>
        <source>incomplete: %1 of %2 bytes arrived</source>
        <translation>内容不完整：只收到 %2 字节中的 %1 字节</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="69"/>
        <location filename="../reasons.py" line="312"/>
        <source>the compressed page is corrupt: %1</source>
        <translation>压缩的页面已损坏：%1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="70"/>
        <location filename="../reasons.py" line="314"/>
        <source>larger than %2 MB</source>
        <translation>超过 %2 MB</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="47"/>
        <location filename="../reasons.py" line="316"/>
        <source>the site refused the connection</source>
        <translation>网站拒绝连接</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="48"/>
        <location filename="../reasons.py" line="319"/>
        <source>no such site: its name does not resolve</source>
        <translation>找不到这个网站：域名无法解析</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="49"/>
        <location filename="../reasons.py" line="321"/>
        <source>the site&apos;s name could not be resolved just now</source>
        <translation>暂时无法解析网站的域名</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="51"/>
        <location filename="../reasons.py" line="323"/>
        <source>the network cannot reach the site</source>
        <translation>网络无法到达这个网站</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="52"/>
        <location filename="../reasons.py" line="325"/>
        <source>the site reset the connection</source>
        <translation>网站重置了连接</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="31"/>
        <location filename="../reasons.py" line="326"/>
        <source>connection failed: %1</source>
        <translation>连接失败：%1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="54"/>
        <location filename="../reasons.py" line="328"/>
        <source>the connection broke while reading: %2</source>
        <translation>读取时连接中断：%2</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="41"/>
        <location filename="../reasons.py" line="330"/>
        <source>no connection within %1 s</source>
        <translation>%1 秒内未能建立连接</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="42"/>
        <location filename="../reasons.py" line="331"/>
        <source>no answer within %1 s</source>
        <translation>%1 秒内没有响应</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="45"/>
        <location filename="../reasons.py" line="333"/>
        <source>the page stalled: nothing came for %1 s</source>
        <translation>页面停滞：%1 秒没有收到数据</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="43"/>
        <location filename="../reasons.py" line="335"/>
        <source>not complete within %1 s</source>
        <translation>%1 秒内没有收完</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="44"/>
        <location filename="../reasons.py" line="337"/>
        <source>too slow to finish within %1 s</source>
        <translation>太慢，%1 秒内无法收完</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="57"/>
        <location filename="../reasons.py" line="339"/>
        <source>the site is unreachable (%1 failures since %2)</source>
        <translation>网站无法访问（自 %2 起已失败 %1 次）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="46"/>
        <location filename="../reasons.py" line="340"/>
        <source>secure connection (TLS) failed: %1</source>
        <translation>安全连接（TLS）失败：%1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="56"/>
        <location filename="../reasons.py" line="341"/>
        <source>request failed: %1</source>
        <translation>请求失败：%1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="76"/>
        <location filename="../reasons.py" line="342"/>
        <source>not a valid link: %1</source>
        <translation>不是有效的链接：%1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="72"/>
        <location filename="../reasons.py" line="343"/>
        <source>the site redirects in a loop</source>
        <translation>网站循环重定向</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="73"/>
        <location filename="../reasons.py" line="345"/>
        <source>more than %1 redirects</source>
        <translation>重定向超过 %1 次</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="71"/>
        <location filename="../reasons.py" line="346"/>
        <source>redirected to %1</source>
        <translation>重定向到：%1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="33"/>
        <location filename="../reasons.py" line="348"/>
        <location filename="../reasons.py" line="350"/>
        <source>a %1 link: only http and https are archived</source>
        <translation>%1 链接：只归档 http 和 https 链接</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="32"/>
        <location filename="../reasons.py" line="352"/>
        <source>the link names no site</source>
        <translation>链接里没有网站地址</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="77"/>
        <location filename="../reasons.py" line="353"/>
        <source>not a link: %1</source>
        <translation>不是链接：%1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="83"/>
        <location filename="../reasons.py" line="355"/>
        <source>the link to %1 carries a user name or password: credentials do not belong in a task list</source>
        <translation>指向 %1 的链接带有用户名或密码：登录凭据不应放进任务列表</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="82"/>
        <location filename="../reasons.py" line="357"/>
        <source>not a valid site name: %1</source>
        <translation>不是有效的网站名：%1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="34"/>
        <location filename="../reasons.py" line="359"/>
        <source>not a valid site name or port</source>
        <translation>网站名或端口无效</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="35"/>
        <location filename="../reasons.py" line="361"/>
        <source>the link is %1 characters long, too long to keep</source>
        <translation>链接长达 %1 个字符，太长，无法保存</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="36"/>
        <location filename="../reasons.py" line="363"/>
        <source>address %1 is never fetched (%2)</source>
        <translation>地址 %1 永远不会抓取（%2）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="90"/>
        <location filename="../reasons.py" line="365"/>
        <source>address %1 is %2: fetched only for a link you added on such an address</source>
        <translation>地址 %1 属于 %2 地址：只有你添加的链接本身在这类地址上时才抓取</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="232"/>
        <source>cannot be read</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="233"/>
        <source>not a saved page or web archive Kuaibu reads</source>
        <translation>不是快捕能读取的保存网页或网页归档</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="235"/>
        <source>a symbolic link: never followed</source>
        <translation>符号链接：从不跟随</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="236"/>
        <source>larger than the size limit</source>
        <translation>超过大小上限</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="237"/>
        <source>a reference leads out of the saved page&apos;s folder</source>
        <translation>有引用指向保存网页所在文件夹之外</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="239"/>
        <source>a broken MHTML file: its MIME parts do not parse</source>
        <translation>MHTML 文件已损坏：其 MIME 分段无法解析</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="241"/>
        <source>holds no HTML page</source>
        <translation>其中没有 HTML 网页</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="242"/>
        <source>not an HTML page</source>
        <translation>不是 HTML 网页</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="243"/>
        <source>an HTTP error response</source>
        <translation>HTTP 错误响应</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="244"/>
        <source>a revisit record: no page of its own, the same as an earlier capture</source>
        <translation>重访记录：没有自己的网页，与先前的一次抓取相同</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="246"/>
        <source>cut short</source>
        <translation>内容不完整</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="247"/>
        <source>its payload digest does not match</source>
        <translation>内容摘要不符</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="248"/>
        <source>inflates past every sane size</source>
        <translation>解压后大得离谱（疑似压缩炸弹）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="249"/>
        <source>damaged: it does not parse</source>
        <translation>已损坏：无法解析</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="271"/>
        <source>unsure extraction (%1)</source>
        <translation>提取把握不大（%1）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="368"/>
        <source>the rules&apos; selector %1 is not valid CSS</source>
        <translation>规则中的选择器 %1 不是有效的 CSS</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="371"/>
        <source>no fetched pages in that category to export in %1</source>
        <translation>该分类中没有已抓取的网页可导出（%1）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="373"/>
        <source>no fetched pages to export in %1</source>
        <translation>%1 中没有已抓取的网页可导出</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="374"/>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="376"/>
        <source>no folder %1 to write %2 in</source>
        <translation>没有文件夹 %1，无法在其中写入 %2</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="378"/>
        <source>%1 is a folder; name the file to write</source>
        <translation>%1 是文件夹；请给出要写入的文件名</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="379"/>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="382"/>
        <source>%1 lacks %2 of the %3 archived tasks: opening it would lose them. Run &apos;python main.py recover&apos; to rebuild the list from the archive (nothing was changed)</source>
        <translation>%1 缺少归档中 %3 个任务里的 %2 个：打开它会丢失这些任务。请运行 &apos;python main.py recover&apos; 从归档重建任务列表（未做任何更改）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="113"/>
        <source>%1 bytes, more than the %2 KB a rules file may hold</source>
        <translation>%1 字节，超过了规则文件允许的 %2 KB</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="112"/>
        <source>not in the saved page</source>
        <translation>保存的网页里没有这张图</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="115"/>
        <source>not UTF-8 text (byte %1); save it as UTF-8</source>
        <translation>不是 UTF-8 文本（字节 %1）；请以 UTF-8 保存</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="116"/>
        <source>holds the control character %1, which a rules file may not</source>
        <translation>含有控制字符 %1，规则文件中不允许出现</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="118"/>
        <source>not valid YAML (%1)</source>
        <translation>不是有效的 YAML（%1）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="119"/>
        <source>nested more than %1 levels deep (rules need 3)</source>
        <translation>嵌套超过 %1 层（规则只需 3 层）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="121"/>
        <source>more than %1 sections (the most a rules file may hold)</source>
        <translation>超过 %1 节（规则文件最多允许的节数）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="123"/>
        <source>expected sections (default: and domains)</source>
        <translation>应为若干节（default: 和各域名）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="125"/>
        <source>written twice, on lines %1 and %2 (the later would silently win); keep one</source>
        <translation>写了两次，在第 %1 行和第 %2 行（后写的会悄悄生效）；只保留一处</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="127"/>
        <source>the same section as line %1 (the later would silently win); keep one</source>
        <translation>与第 %1 行是同一节（后写的会悄悄生效）；只保留一处</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="129"/>
        <source>section name: expected default or a site&apos;s host name (example.com), not %1</source>
        <translation>节名：应为 default 或网站的主机名（如 example.com），而不是 %1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="131"/>
        <source>expected keys with their values</source>
        <translation>应为键及其值</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="132"/>
        <source>unknown key (known: %1)</source>
        <translation>未知的键（可用的键：%1）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="133"/>
        <source>expected a non-empty text</source>
        <translation>应为非空文字</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="134"/>
        <source>expected text without control characters (%1 in %2)</source>
        <translation>应为不含控制字符的文本（%2 中有 %1）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="136"/>
        <source>expected a header value: Latin-1 text without spaces at either end (percent-encode the rest), not %1</source>
        <translation>应为请求头的值：首尾无空格的 Latin-1 文本（其他字符请用百分号编码），而不是 %1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="139"/>
        <source>expected a list of texts</source>
        <translation>应为文字列表</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="140"/>
        <source>expected a list of at most %1 texts, not %2</source>
        <translation>应为最多 %1 项的文本列表，而不是 %2 项</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="142"/>
        <source>expected a whole number from %1 to %2, not %3</source>
        <translation>应为 %1 到 %2 之间的整数，而不是 %3</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="144"/>
        <source>%1 is not an encoding Kuaibu can read (e.g. utf-8, gb18030, big5, shift_jis)</source>
        <translation>%1 不是快捕能读取的编码（如 utf-8、gb18030、big5、shift_jis）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="147"/>
        <source>expected a regular expression, not %1 (%2)</source>
        <translation>应为正则表达式，而不是 %1（%2）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="148"/>
        <source>expected %1</source>
        <translation>应为 %1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="149"/>
        <source>expected header names, each with its value</source>
        <translation>应为请求头名称及其值</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="151"/>
        <source>expected at most %1 headers, not %2</source>
        <translation>最多 %1 个请求头，而不是 %2 个</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="152"/>
        <source>expected a header name of letters, digits and !#$%&amp;&apos;*+-.^_`|~, not %1</source>
        <translation>应为由字母、数字和 !#$%&amp;&apos;*+-.^_`|~ 组成的请求头名称，而不是 %1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="154"/>
        <source>expected each header once (%1 and %2 are one name)</source>
        <translation>每个请求头只能写一次（%1 和 %2 是同一个名称）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="156"/>
        <source>expected name=value pairs separated by &apos;;&apos;, not %1</source>
        <translation>应为以“;”分隔的 name=value 对，而不是 %1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="158"/>
        <source>cookies belong under a domain section, so that they go only to that site</source>
        <translation>Cookies 应写在某个域名的节下，这样只会发给该网站</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="163"/>
        <source>cannot read the book %1: %2</source>
        <translation>无法读取电子书 %1：%2</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="164"/>
        <source>not an EPUB, whose files are a zip archive (%1)</source>
        <translation>不是 EPUB 电子书（EPUB 是 zip 压缩包）（%1）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="166"/>
        <source>the file cannot be read (%1)</source>
        <translation>文件无法读取（%1）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="167"/>
        <source>more than %1 files in it</source>
        <translation>其中文件超过 %1 个</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="168"/>
        <source>%1 is missing</source>
        <translation>缺少 %1</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="169"/>
        <source>%1 is larger than %2 MB</source>
        <translation>%1 大于 %2 MB</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="170"/>
        <source>%1 is damaged (%2)</source>
        <translation>%1 已损坏（%2）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="171"/>
        <source>%1 is not well-formed XML (%2)</source>
        <translation>%1 不是格式正确的 XML（%2）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="172"/>
        <source>%1 names no package document</source>
        <translation>%1 未指明包文档（OPF）</translation>
    </message>
    <message>
        <location filename="../reasons.py" line="173"/>
        <source>%1 lists no chapter to read</source>
        <translation>%1 没有列出可阅读的章节</translation>
    </message>
</context>
<context>
    <name>ReportView</name>
    <message>
        <location filename="../report_view.py" line="89"/>
        <location filename="../report_view.py" line="116"/>
        <source>No report yet: one is written after every run.</source>
        <translation>还没有报告：每次运行后都会生成一份。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="92"/>
        <source>Write again</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="94"/>
        <source>Write 04_logs/report.html from the task list as it is now</source>
        <translation>按当前任务列表重新生成 04_logs/report.html</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="95"/>
        <source>Open in browser</source>
        <translation>在浏览器中打开</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="151"/>
        <source>Report of %1: %2</source>
        <translation>%1 的报告：%2</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="162"/>
        <source>Wayback copy</source>
        <translation>Wayback 副本</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="183"/>
        <source>No failures</source>
        <translation>没有失败</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="188"/>
        <source>Count</source>
        <translation>数量</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="188"/>
        <location filename="../report_view.py" line="207"/>
        <source>Advice</source>
        <translation>建议</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="188"/>
        <location filename="../report_view.py" line="196"/>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="194"/>
        <source>Run report</source>
        <translation>运行报告</translation>
    </message>
    <message numerus="yes">
        <location filename="../report_view.py" line="195"/>
        <source>%n tasks</source>
        <translation>
            <numerusform>%n 个任务</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../report_view.py" line="196"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="199"/>
        <source>Failures by kind</source>
        <translation>按类型的失败</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="200"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="201"/>
        <source>Failures by domain</source>
        <translation>按网站的失败</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="202"/>
        <source>Domain</source>
        <translation>网站</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="203"/>
        <source>Images</source>
        <translation>图片</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="204"/>
        <source>%1 of %2 saved</source>
        <translation>已保存 %2 张中的 %1 张</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="206"/>
        <source>Saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="206"/>
        <source>In the articles</source>
        <translation>文章中共有</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="206"/>
        <source>Image host</source>
        <translation>图片主机</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="207"/>
        <source>Why missing</source>
        <translation>缺失原因</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="213"/>
        <source>Articles to check</source>
        <translation>可能有误的文章</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="214"/>
        <source>Article</source>
        <translation>文章</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="214"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="218"/>
        <source>None found</source>
        <translation>没有发现</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="219"/>
        <source>Read these through</source>
        <translation>抽样通读</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="222"/>
        <source>No articles yet</source>
        <translation>还没有文章</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="228"/>
        <source>press %1</source>
        <translation>点“%1”</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="231"/>
        <source>The site limits requests: in %1 lower “%2” and raise “%3”, then %4.</source>
        <translation>网站限制了请求频率：在“%1”中调低“%2”、调高“%3”，然后%4。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="234"/>
        <source>The page is gone: try its Wayback copy (linked beside it) and, if it is the article, put that link in the list instead.</source>
        <translation>页面已不在：试试旁边链接的 Wayback 副本；若正是那篇文章，就在列表中改用这个链接。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="236"/>
        <source>The site refuses the connection: it is down, or the link is wrong (its host or port). Open it in a browser.</source>
        <translation>网站拒绝连接：网站已停止服务，或链接有误（主机名或端口）。请在浏览器中打开看看。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="238"/>
        <source>The site&apos;s name does not resolve: it is gone, or the link misspells it. Check the link.</source>
        <translation>网站的域名无法解析：网站已不在，或链接把域名拼错了。请检查链接。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="240"/>
        <source>The image host refuses pictures shown on other sites: check the Referer in the page&apos;s site rules (%2).</source>
        <translation>图片主机不许别的网站引用它的图片（防盗链）：检查该页面网站规则（%2）中的 Referer。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="245"/>
        <source>Check the connection and the site, then %4.</source>
        <translation>检查网络连接和网站，然后%4。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="248"/>
        <source>The server broke: try again later (%4).</source>
        <translation>服务器出错：稍后再试（%4）。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="263"/>
        <source>An anti-bot or login page: export the site&apos;s cookies from a browser and choose the file in %1 (“%3”), then %4.</source>
        <translation>反爬虫或登录页面：从浏览器导出该网站的 Cookie，在“%1”中选择该文件（“%3”），然后%4。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="269"/>
        <source>Its scripts build the article: %5 in the %6 tab, then %4.</source>
        <translation>正文由脚本生成：在“%6”标签页点“%5”，然后%4。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="247"/>
        <source>The server refuses the link: open it in a browser (404 or 410: it is gone).</source>
        <translation>服务器拒绝了这个链接：在浏览器中打开看看（404 或 410：页面已不存在）。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="242"/>
        <source>The image is over the size limit: in %1 raise “%2”, then %4.</source>
        <translation>图片超过大小上限：在“%1”中调高“%2”，然后%4。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="250"/>
        <source>The link redirects in a loop or off the web: open it in a browser.</source>
        <translation>链接循环重定向或跳到了网页之外：在浏览器中打开看看。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="252"/>
        <source>Not a link Kuaibu fetches: correct it in the list or move the task to the trash.</source>
        <translation>这不是快捕能抓取的链接：在列表中改正它，或把任务移到回收站。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="255"/>
        <source>A private or local address: fetched only for links added on such an address or when the archive&apos;s settings allow it.</source>
        <translation>私有或本地地址：只有在这类地址上添加的链接，或归档的设置允许时才会抓取。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="258"/>
        <source>Not a web page (a PDF, an image): if it is a page, give its site a content selector in %2; else move the task to the trash.</source>
        <translation>不是网页（PDF、图片）：如果它是网页，在“%2”中为其网站设置正文选择器；否则把任务移到回收站。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="261"/>
        <source>Over the size limit: give its site a content selector in %2.</source>
        <translation>超过大小上限：在“%2”中为其网站设置正文选择器。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="265"/>
        <source>The page arrived cut short: %4.</source>
        <translation>页面没有完整收到：%4。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="266"/>
        <source>No article found: give its site a content selector in %2.</source>
        <translation>没有找到正文：在“%2”中为其网站设置正文选择器。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="270"/>
        <source>The site rules say something that cannot work: open %2 and fix what it marks.</source>
        <translation>网站规则有无法生效的内容：打开“%2”，修正其中标出的地方。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="272"/>
        <source>A bug: its traceback is in 04_logs/errors.log.</source>
        <translation>程序错误：调用栈记录在 04_logs/errors.log。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="273"/>
        <source>A failure without a kind (an older list): %4.</source>
        <translation>没有类型的失败（旧版列表）：%4。</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="280"/>
        <source>host does not resolve</source>
        <translation>域名无法解析</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="281"/>
        <source>connection refused</source>
        <translation>连接被拒绝</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="282"/>
        <source>hotlinking refused (403)</source>
        <translation>拒绝外链（403）</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="283"/>
        <source>gone (404/410)</source>
        <translation>已不在（404/410）</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="284"/>
        <source>too large</source>
        <translation>过大</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="284"/>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="288"/>
        <source>very short: %1 characters</source>
        <translation>正文过短：%1 字</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="289"/>
        <source>the extractor is unsure (confidence %1)</source>
        <translation>提取结果不确定（置信度 %1）</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="290"/>
        <source>the title is the site&apos;s name: %1</source>
        <translation>标题是网站名：%1</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="291"/>
        <source>mostly links: %1 of the text</source>
        <translation>多为链接：占正文 %1</translation>
    </message>
</context>
<context>
    <name>RulesEditor</name>
    <message>
        <location filename="../rules_editor/window.py" line="69"/>
        <source>Site rules — %1</source>
        <translation>站点规则 — %1</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="240"/>
        <source>CSS selector of the element that holds the article (e.g. article .post-content). When it matches, its text is the article; when it matches nothing, the automatic extraction decides.</source>
        <translation>正文所在元素的 CSS 选择器（如 article .post-content）。命中时以它的文字为正文；未命中时由自动提取决定。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="248"/>
        <source>CSS selector of the headline (e.g. h1.title). When it matches nothing, the headline is found as usual.</source>
        <translation>标题的 CSS 选择器（如 h1.title）。未命中时照常识别标题。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="254"/>
        <source>CSS selectors of elements removed before the article is found (a domain&apos;s list replaces the default one).</source>
        <translation>在提取正文之前移除的元素的 CSS 选择器（域名一节的列表会替换默认列表）。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="261"/>
        <source>More CSS selectors of elements to remove before the article is found, on top of the strip list (comma-separated here, e.g. .reward-box, .copyright-tip).</source>
        <translation>在 strip 列表之外，提取正文前额外移除的元素的 CSS 选择器（此处用逗号分隔，如 .reward-box, .copyright-tip）。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="267"/>
        <source>HTML attributes kept in the clean article.</source>
        <translation>清洗后的文章中保留的 HTML 属性。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="272"/>
        <source>An article with fewer characters than this (white space not counted) fails as too short. 0 here: the key is not set.</source>
        <translation>字数（不计空白）少于此值的文章视为过短而失败。此处为 0：不设置此键。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="280"/>
        <source>Read this site&apos;s pages in this encoding (e.g. gb18030) when the site names a wrong one. Empty: as the page says, or detected.</source>
        <translation>网站声明的编码有误时，按此编码读取其页面（如 gb18030）。留空：按页面声明或自动检测。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="287"/>
        <source>Cookies sent to this domain only, as name=value; name2=value2 (e.g. a login copied from the browser).</source>
        <translation>只发送给此域名的 Cookies，格式为 name=value; name2=value2（如从浏览器复制的登录信息）。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="293"/>
        <source>Extra request headers for this domain (name: value).</source>
        <translation>发送给此域名的额外请求头（名称: 值）。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="297"/>
        <source>The User-Agent sent to this domain.</source>
        <translation>发送给此域名的 User-Agent。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="300"/>
        <source>The Referer sent with this domain&apos;s images (default: the page&apos;s address).</source>
        <translation>请求此域名的图片时发送的 Referer（默认：文章页面的地址）。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="305"/>
        <source>Connections to this host at once (default %1).</source>
        <translation>同时连接此主机的连接数（默认 %1）。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="308"/>
        <source>Milliseconds between the starts of two requests to this host (default %1).</source>
        <translation>对此主机两次请求开始之间间隔的毫秒数（默认 %1）。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="313"/>
        <source>Query parameters dropped from this domain&apos;s links, on top of the built-in list.</source>
        <translation>在内置列表之外，从此域名的链接中去掉的查询参数。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="327"/>
        <source>More attributes where lazy-loading images keep their address.</source>
        <translation>懒加载图片存放地址的其他属性。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="332"/>
        <source>A regular expression an article&apos;s link matches on this site&apos;s list pages; when set, harvest takes exactly the links that match it.</source>
        <translation>本站列表页上文章链接所匹配的正则表达式；设置后，harvest 只取匹配它的链接。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="321"/>
        <source>Query parameters that name a page on this site and are kept though they look like tracking (e.g. ref for GitHub&apos;s branch, from for a timetable).</source>
        <translation>在此网站上指明页面的查询参数，即使看起来像跟踪参数也保留（如 GitHub 分支的 ref、时刻表的 from）。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="342"/>
        <source>browser: this site&apos;s pages are opened in the system&apos;s Chromium and the page its scripts build is archived (for pages that arrive empty without JavaScript); fetch: never, even when the settings render every site.</source>
        <translation>browser：用系统的 Chromium 打开此网站的页面，归档脚本生成的内容（适用于没有 JavaScript 就是空白的页面）；fetch：从不渲染，即使设置要求渲染所有网站。</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="341"/>
        <source>Render with browser</source>
        <translation>用浏览器渲染</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="91"/>
        <source>Pick content</source>
        <translation>拾取正文</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="239"/>
        <source>Content selector</source>
        <translation>正文选择器</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="247"/>
        <source>Title selector</source>
        <translation>标题选择器</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="260"/>
        <source>Also remove</source>
        <translation>额外移除</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="271"/>
        <source>Minimum length</source>
        <translation>最少字数</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="286"/>
        <source>Cookies</source>
        <translation>Cookie</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="340"/>
        <source>Scripts</source>
        <translation>脚本</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="125"/>
        <source>Keys…</source>
        <translation>键说明…</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="126"/>
        <source>What each key of rules.yaml does</source>
        <translation>rules.yaml 中每个键的作用</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="133"/>
        <source>Test on this domain</source>
        <translation>在整个域名上测试</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="135"/>
        <source>Extract every stored page of the section&apos;s domain again with these rules, nothing saved, and list them before and after</source>
        <translation>用这些规则重新提取该节域名下所有已保存的页面（不保存任何内容），并列出前后对比</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="371"/>
        <source>Saved. Pages are cleaned with these rules when they are run, or now with Apply to domain.</source>
        <translation>已保存。页面会在运行时按这些规则清洗，也可以点“应用到整个域名”立即清洗。</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="382"/>
        <source>A run is going; apply the rules once it has ended.</source>
        <translation>正在运行任务；请在运行结束后再应用规则。</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="395"/>
        <source>Saved; no stored pages of %1 to clean again.</source>
        <translation>已保存；%1 没有需要重新清洗的已保存页面。</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="410"/>
        <source>%1 of them would lose their article under these rules: those keep the article they have now, and show why the new rules failed.</source>
        <translation>其中 %1 篇按这些规则会失去正文：它们将保留现有的文章，并显示新规则失败的原因。</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="414"/>
        <source>%1 of them would lose more than a third of their text.</source>
        <translation>其中 %1 篇会失去三分之一以上的文字。</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="421"/>
        <source>no article</source>
        <translation>未找到正文</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="424"/>
        <source>Clean again</source>
        <translation>重新清洗</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="434"/>
        <source>Nothing was saved or cleaned.</source>
        <translation>没有保存或清洗任何内容。</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="437"/>
        <source>The rules changed while you were asked; apply again.</source>
        <translation>询问期间规则已被修改；请重新应用。</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="450"/>
        <source>A run is going; undo once it has ended.</source>
        <translation>正在运行任务；请在运行结束后再撤销。</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="459"/>
        <source>Nothing to undo: no earlier rules are kept.</source>
        <translation>没有可撤销的内容：没有保存过更早的规则。</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="461"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="462"/>
        <source>rules.yaml is back as it was before the last save (sections changed: %1); cleaning %2 pages again.</source>
        <translation>rules.yaml 已恢复为上次保存之前的内容（改动的节：%1）；正在重新清洗 %2 个页面。</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="357"/>
        <source>Suggested content selector: %1</source>
        <translation>建议的正文选择器：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../rules_editor/window.py" line="399"/>
        <source>Clean again %n articles of every site?</source>
        <translation>
            <numerusform>重新清洗所有网站的 %n 篇文章？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../rules_editor/window.py" line="401"/>
        <source>Clean again %n articles of %1?</source>
        <translation>
            <numerusform>重新清洗 %1 的 %n 篇文章？</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../rules_editor/window.py" line="441"/>
        <source>Saved; cleaning %n pages of %1 again…</source>
        <translation>
            <numerusform>已保存；正在重新清洗 %1 的 %n 个页面…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="500"/>
        <source>The rules you changed are not saved. Close and drop the changes?</source>
        <translation>你修改的规则尚未保存。关闭并放弃这些修改吗？</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="504"/>
        <source>Close the rules</source>
        <translation>关闭规则</translation>
    </message>
    <message>
        <location filename="../../pipeline/rules/model.py" line="279"/>
        <source>Encoding</source>
        <translation>编码</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="138"/>
        <location filename="../rules_editor/window.py" line="403"/>
        <source>Apply to domain</source>
        <translation>应用到整个域名</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="140"/>
        <source>Save, then clean every stored page of the section&apos;s domain again (asks first)</source>
        <translation>保存，然后重新清洗该节域名下所有已保存的页面（会先询问）</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="142"/>
        <source>Undo last rules change</source>
        <translation>撤销上次规则修改</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="144"/>
        <source>Put rules.yaml back as it was before the last save, and clean the pages it changed again (edits not saved here are dropped)</source>
        <translation>把 rules.yaml 恢复为上次保存之前的内容，并重新清洗受影响的页面（此处未保存的修改会被丢弃）</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="147"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="89"/>
        <source>This task</source>
        <translation>此任务</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="90"/>
        <source>This domain</source>
        <translation>整个域名</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="219"/>
        <source>Valid</source>
        <translation>有效</translation>
    </message>
    <message>
        <location filename="../rules_editor/window.py" line="280"/>
        <source>Section %1 is written inline; edit it in the text.</source>
        <translation>%1 一节是行内写法，请直接在文本中修改。</translation>
    </message>
</context>
<context>
    <name>RulesForm</name>
    <message>
        <location filename="../rules_editor/form.py" line="56"/>
        <source>The section the form edits: a domain (its sub-domains use it too, unless they have their own) or &apos;default&apos; for every site</source>
        <translation>表单编辑的一节：一个域名（其子域名也使用它，除非有自己的一节），或对所有网站生效的 &apos;default&apos;</translation>
    </message>
    <message>
        <location filename="../rules_editor/form.py" line="78"/>
        <source>Domain</source>
        <translation>域名</translation>
    </message>
    <message>
        <location filename="../rules_editor/form.py" line="236"/>
        <source>Not on this machine yet: %1</source>
        <translation>本机尚不能渲染：%1</translation>
    </message>
</context>
<context>
    <name>RulesMessages</name>
    <message>
        <location filename="../rules_editor/messages.py" line="17"/>
        <source>Line %1</source>
        <translation>第 %1 行</translation>
    </message>
</context>
<context>
    <name>RunBar</name>
    <message>
        <location filename="../run_bar.py" line="38"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../run_bar.py" line="39"/>
        <location filename="../run_bar.py" line="137"/>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <location filename="../run_bar.py" line="40"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../run_bar.py" line="41"/>
        <source>Retry failed</source>
        <translation>重试失败项</translation>
    </message>
    <message>
        <location filename="../run_bar.py" line="66"/>
        <source>fetched %1 · cleaned %2 · localized %3 · failed %4</source>
        <translation>已抓取 %1 · 已清洗 %2 · 图片已存 %3 · 失败 %4</translation>
    </message>
    <message>
        <location filename="../run_bar.py" line="104"/>
        <source>%1/s, ETA %2</source>
        <translation>%1 篇/秒，预计剩余 %2</translation>
    </message>
    <message>
        <location filename="../run_bar.py" line="119"/>
        <source>Stopped: %1 of %2 done, %3 failed, %4 left for the next run</source>
        <translation>已停止：%2 个中完成 %1 个，失败 %3 个，剩余 %4 个留待下次运行</translation>
    </message>
    <message>
        <location filename="../run_bar.py" line="127"/>
        <source>Finished %1 of %2, %3 failed</source>
        <translation>已完成 %1 / %2，失败 %3</translation>
    </message>
    <message>
        <location filename="../run_bar.py" line="123"/>
        <source>Finished %1 of %2, %3 failed, %4 kept their article (the new rules found none)</source>
        <translation>已完成 %1 / %2，失败 %3，%4 篇保留原有正文（新规则未找到正文）</translation>
    </message>
    <message>
        <location filename="../run_bar.py" line="137"/>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
</context>
<context>
    <name>SearchPanel</name>
    <message>
        <location filename="../search_panel.py" line="191"/>
        <source>Search the articles…</source>
        <translation>搜索文章…</translation>
    </message>
    <message>
        <location filename="../search_panel.py" line="268"/>
        <source>Searching…</source>
        <translation>正在搜索…</translation>
    </message>
    <message numerus="yes">
        <location filename="../search_panel.py" line="275"/>
        <source>%n articles found</source>
        <translation>
            <numerusform>找到 %n 篇文章</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../search_panel.py" line="278"/>
        <source>No article holds “%1”.</source>
        <translation>没有文章包含“%1”。</translation>
    </message>
    <message>
        <location filename="../search_panel.py" line="283"/>
        <source>Search failed: %1</source>
        <translation>搜索失败：%1</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <location filename="../../pipeline/records/settings.py" line="86"/>
        <source>Connect timeout (s)</source>
        <translation>连接超时（秒）</translation>
    </message>
    <message>
        <location filename="../../pipeline/records/settings.py" line="88"/>
        <source>Read timeout (s)</source>
        <translation>读取超时（秒）</translation>
    </message>
    <message>
        <location filename="../../pipeline/records/settings.py" line="90"/>
        <source>Retries</source>
        <translation>重试次数</translation>
    </message>
    <message>
        <location filename="../../pipeline/records/settings.py" line="99"/>
        <source>Page deadline (s)</source>
        <translation>网页最长用时（秒）</translation>
    </message>
    <message>
        <location filename="../../pipeline/records/settings.py" line="101"/>
        <source>Image deadline (s)</source>
        <translation>图片最长用时（秒）</translation>
    </message>
    <message>
        <location filename="../../pipeline/records/settings.py" line="108"/>
        <source>Connections per site</source>
        <translation>每个站点的连接数</translation>
    </message>
    <message>
        <location filename="../../pipeline/records/settings.py" line="110"/>
        <source>Connections in all</source>
        <translation>总连接数</translation>
    </message>
    <message>
        <location filename="../../pipeline/records/settings.py" line="113"/>
        <source>Delay between requests to a site (ms)</source>
        <translation>同一站点请求间隔（毫秒）</translation>
    </message>
    <message>
        <location filename="../../pipeline/records/settings.py" line="135"/>
        <source>Largest image edge (px)</source>
        <translation>图片最长边（像素）</translation>
    </message>
    <message>
        <location filename="../../pipeline/records/settings.py" line="137"/>
        <source>JPEG quality</source>
        <translation>JPEG 质量</translation>
    </message>
    <message>
        <location filename="../../pipeline/records/settings.py" line="140"/>
        <source>Largest image download (MB)</source>
        <translation>图片下载上限（MB）</translation>
    </message>
    <message>
        <location filename="../../pipeline/records/settings.py" line="146"/>
        <source>EPUB size budget (MB)</source>
        <translation>EPUB 体积上限（MB）</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../settings_dialog.py" line="80"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="122"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="84"/>
        <location filename="../settings_dialog.py" line="131"/>
        <source>Archive folder</source>
        <translation>归档文件夹</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="88"/>
        <source>cookies.txt exported from a browser</source>
        <translation>从浏览器导出的 cookies.txt</translation>
    </message>
    <message>
        <location filename="../report_view.py" line="275"/>
        <location filename="../settings_dialog.py" line="86"/>
        <location filename="../settings_dialog.py" line="137"/>
        <source>Cookies file</source>
        <translation>Cookie 文件</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="97"/>
        <source>Only sites whose rules say render: browser</source>
        <translation>只渲染规则中写了 render: browser 的网站</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="98"/>
        <source>Every site, but those whose rules say render: fetch</source>
        <translation>所有网站（规则中写了 render: fetch 的除外）</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="100"/>
        <source>Rendering opens pages in the system&apos;s Chromium so that what their scripts build is archived; it needs pip install -e &apos;.[browser]&apos; and the chromium package</source>
        <translation>渲染会用系统的 Chromium 打开页面，以便归档脚本生成的内容；需要 pip install -e &apos;.[browser]&apos; 和 chromium 软件包</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="103"/>
        <source>Render with browser</source>
        <translation>用浏览器渲染</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="105"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="110"/>
        <source>Language</source>
        <translation>界面语言</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="111"/>
        <source>A new language applies from the next start.</source>
        <translation>新的界面语言在下次启动时生效。</translation>
    </message>
    <message>
        <location filename="../settings_dialog.py" line="139"/>
        <source>Cookies (*.txt);;All files (*)</source>
        <translation>Cookie 文件 (*.txt);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../shortcuts_dialog.py" line="58"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../shortcuts_dialog.py" line="60"/>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <location filename="../shortcuts_dialog.py" line="60"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
</context>
<context>
    <name>TaskPreview</name>
    <message>
        <location filename="../rules_editor/task_preview.py" line="65"/>
        <source>Select a task whose page has been fetched.</source>
        <translation>请选择一个页面已抓取的任务。</translation>
    </message>
    <message>
        <location filename="../rules_editor/task_preview.py" line="81"/>
        <source>The preview waits until the rules are valid.</source>
        <translation>规则有效后才会更新预览。</translation>
    </message>
    <message>
        <location filename="../rules_editor/task_preview.py" line="84"/>
        <source>the rules as typed, not saved</source>
        <translation>按当前输入的规则，未保存</translation>
    </message>
    <message>
        <location filename="../rules_editor/task_preview.py" line="105"/>
        <source>These rules find no article on this page: %1</source>
        <translation>按这些规则在此页面上找不到正文：%1</translation>
    </message>
    <message>
        <location filename="../rules_editor/task_preview.py" line="116"/>
        <source>The form edits %1; this task&apos;s page is on %2, which it does not cover.</source>
        <translation>表单正在编辑 %1；此任务的页面位于 %2，不在其范围内。</translation>
    </message>
    <message>
        <location filename="../rules_editor/task_preview.py" line="119"/>
        <source>No rule of this site has a selector: automatic extraction.</source>
        <translation>此网站的规则没有任何选择器：使用自动提取。</translation>
    </message>
    <message>
        <location filename="../rules_editor/task_preview.py" line="137"/>
        <source>Content selector %1 matched nothing: automatic extraction used</source>
        <translation>正文选择器 %1 未命中任何元素：已使用自动提取</translation>
    </message>
    <message numerus="yes">
        <location filename="../rules_editor/task_preview.py" line="139"/>
        <source>Content selector %1 matched %n elements (%2 characters)</source>
        <translation>
            <numerusform>正文选择器 %1 命中 %n 个元素（%2 字）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../rules_editor/task_preview.py" line="143"/>
        <source>Title selector %1 matched %n elements</source>
        <translation>
            <numerusform>标题选择器 %1 命中 %n 个元素</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../rules_editor/task_preview.py" line="149"/>
        <source>Strip %1 removed %n elements (%2 characters)</source>
        <translation>
            <numerusform>移除 %1 去掉了 %n 个元素（%2 字）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../rules_editor/task_preview.py" line="142"/>
        <source>Title selector %1 matched nothing: the page&apos;s headline used</source>
        <translation>标题选择器 %1 未命中任何元素：已使用页面自身的标题</translation>
    </message>
    <message>
        <location filename="../rules_editor/task_preview.py" line="148"/>
        <source>Strip %1 matched nothing</source>
        <translation>移除 %1 未命中任何元素</translation>
    </message>
    <message>
        <location filename="../rules_editor/task_preview.py" line="156"/>
        <source>Strip selectors that matched nothing: %1</source>
        <translation>未命中任何元素的移除选择器：%1</translation>
    </message>
</context>
<context>
    <name>TaskTableModel</name>
    <message>
        <location filename="../task_model.py" line="223"/>
        <source>pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="224"/>
        <source>running</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="225"/>
        <source>fetched</source>
        <translation>已抓取</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="226"/>
        <source>cleaned</source>
        <translation>已清洗</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="227"/>
        <source>localized</source>
        <translation>图片已存</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="228"/>
        <source>done</source>
        <translation>已成书</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="229"/>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="230"/>
        <source>duplicate</source>
        <translation>重复</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="270"/>
        <source>needs review</source>
        <translation>需复核</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="201"/>
        <source>network</source>
        <translation>网络</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="202"/>
        <source>HTTP 4xx</source>
        <translation>HTTP 4xx（请求被拒）</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="203"/>
        <source>HTTP 5xx</source>
        <translation>HTTP 5xx（服务器出错）</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="204"/>
        <source>redirect</source>
        <translation>重定向</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="205"/>
        <source>bad link</source>
        <translation>无效链接</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="206"/>
        <source>blocked address</source>
        <translation>禁止的地址</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="208"/>
        <source>not HTML</source>
        <translation>非 HTML 页面</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="209"/>
        <source>too large</source>
        <translation>过大</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="210"/>
        <source>anti-bot page</source>
        <translation>反爬验证页</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="211"/>
        <source>cut short</source>
        <translation>内容不完整</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="212"/>
        <source>no article</source>
        <translation>未找到正文</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="213"/>
        <source>needs JavaScript</source>
        <translation>需要 JavaScript</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="214"/>
        <source>rules</source>
        <translation>规则</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="215"/>
        <source>internal error</source>
        <translation>内部错误</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="216"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="273"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="273"/>
        <source>ID</source>
        <translation>编号</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="273"/>
        <source>Why</source>
        <translation>原因类别</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="274"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="274"/>
        <source>Domain</source>
        <translation>域名</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="275"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="275"/>
        <source>Subcategory</source>
        <translation>子分类</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="276"/>
        <source>Fetched</source>
        <translation>抓取时间</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="276"/>
        <source>Characters</source>
        <translation>字数</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="277"/>
        <source>Images</source>
        <translation>图片</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="277"/>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="533"/>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="612"/>
        <source>duplicate of #%1</source>
        <translation>与 #%1 重复</translation>
    </message>
    <message>
        <location filename="../task_model.py" line="640"/>
        <source>Needs review: extraction confidence %1</source>
        <translation>需要复核：提取置信度 %1</translation>
    </message>
</context>
<context>
    <name>TrashView</name>
    <message>
        <location filename="../trash_view.py" line="65"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../trash_view.py" line="65"/>
        <source>URL</source>
        <translation>网址</translation>
    </message>
    <message>
        <location filename="../trash_view.py" line="65"/>
        <source>Deleted</source>
        <translation>删除时间</translation>
    </message>
    <message>
        <location filename="../trash_view.py" line="69"/>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../trash_view.py" line="71"/>
        <location filename="../trash_view.py" line="188"/>
        <source>Empty trash</source>
        <translation>清空回收站</translation>
    </message>
    <message numerus="yes">
        <location filename="../trash_view.py" line="125"/>
        <source>%n tasks in the trash</source>
        <translation>
            <numerusform>回收站中有 %n 个任务</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../trash_view.py" line="189"/>
        <source>Delete the %n tasks in the trash for good, with their stored pages and articles? This cannot be undone.</source>
        <translation>
            <numerusform>要永久删除回收站中的 %n 个任务及其保存的网页和文章吗？此操作无法撤销。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../trash_view.py" line="126"/>
        <source>The trash is empty.</source>
        <translation>回收站是空的。</translation>
    </message>
</context>
<context>
    <name>UpdateCheck</name>
    <message>
        <location filename="../update_check.py" line="85"/>
        <source>Nothing to check: only archived articles are checked for updates.</source>
        <translation>没有可检查的文章：只检查已归档文章的更新。</translation>
    </message>
    <message numerus="yes">
        <location filename="../update_check.py" line="88"/>
        <source>Check %n archived articles for updates? Each is asked of its site again; a changed one keeps its old copy in the archive&apos;s history.</source>
        <translation>
            <numerusform>检查 %n 篇已归档文章的更新？每篇都会重新向其网站请求；有变化的文章会在归档历史中保留旧版本。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../update_check.py" line="99"/>
        <source>changed %1 · unchanged %2 · could not check %3</source>
        <translation>有变化 %1 · 无变化 %2 · 无法检查 %3</translation>
    </message>
    <message>
        <location filename="../update_check.py" line="118"/>
        <source>Checked %1: %2 changed, %3 unchanged, %4 could not be checked</source>
        <translation>已检查 %1 篇：%2 篇有变化，%3 篇无变化，%4 篇无法检查</translation>
    </message>
    <message numerus="yes">
        <location filename="../update_check.py" line="124"/>
        <source>Stopped: %n articles were not checked.</source>
        <translation>
            <numerusform>已停止：%n 篇文章未检查。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../update_check.py" line="141"/>
        <source>Check for updates</source>
        <translation>检查更新</translation>
    </message>
</context>
<context>
    <name>WindowArchive</name>
    <message>
        <location filename="../main_window/archive.py" line="91"/>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/archive.py" line="104"/>
        <source>Opening %1: reading about %n tasks…</source>
        <translation>
            <numerusform>正在打开 %1：正在读取约 %n 个任务…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../main_window/archive.py" line="112"/>
        <source>%1 is still opening: its tasks are being read. Try again once the table shows them.</source>
        <translation>%1 仍在打开：正在读取其中的任务。请等表格显示出任务后再试。</translation>
    </message>
    <message>
        <location filename="../main_window/archive.py" line="128"/>
        <source>Kuaibu — %1</source>
        <translation>快捕 — %1</translation>
    </message>
    <message>
        <location filename="../main_window/archive.py" line="129"/>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/archive.py" line="147"/>
        <source>Opened %1; %n tasks wait to be run (%2 takes them up)</source>
        <translation>
            <numerusform>已打开 %1；%n 个任务等待运行（点“%2”继续）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../main_window/archive.py" line="151"/>
        <source>Kuaibu — %1 (read-only)</source>
        <translation>快捕 — %1（只读）</translation>
    </message>
    <message>
        <location filename="../main_window/archive.py" line="154"/>
        <source>Read-only: %1 cannot be written here (a backup, a disc or another user&apos;s folder). Search, previews and books work; adding, running and building are off.</source>
        <translation>只读：此处无法写入 %1（备份、光盘或他人的文件夹）。搜索、预览和书籍可用；添加、运行和生成已关闭。</translation>
    </message>
    <message>
        <location filename="../main_window/archive.py" line="174"/>
        <source>Open archive</source>
        <translation>打开归档</translation>
    </message>
    <message>
        <location filename="../main_window/archive.py" line="180"/>
        <source>New archive</source>
        <translation>新建归档</translation>
    </message>
    <message>
        <location filename="../main_window/archive.py" line="187"/>
        <source>%1 does not exist. Make a new archive there?</source>
        <translation>%1 不存在。要在那里新建归档吗？</translation>
    </message>
    <message>
        <location filename="../main_window/archive.py" line="215"/>
        <source>Export as WARC or WACZ</source>
        <translation>导出为 WARC 或 WACZ</translation>
    </message>
    <message>
        <location filename="../main_window/archive.py" line="217"/>
        <source>WARC (*.warc.gz);;WACZ (*.wacz)</source>
        <translation>WARC 文件 (*.warc.gz);;WACZ 包 (*.wacz)</translation>
    </message>
    <message>
        <location filename="../main_window/archive.py" line="231"/>
        <source>Exporting to %1…</source>
        <translation>正在导出到 %1…</translation>
    </message>
    <message>
        <location filename="../main_window/archive.py" line="237"/>
        <source>Exported %1 (pages %2 · images %3)</source>
        <translation>已导出 %1（网页 %2 · 图片 %3）</translation>
    </message>
    <message>
        <location filename="../main_window/archive.py" line="243"/>
        <source>Export: %1</source>
        <translation>导出：%1</translation>
    </message>
</context>
<context>
    <name>WindowBooks</name>
    <message>
        <location filename="../main_window/books.py" line="105"/>
        <source>#%1 is in no book yet: Build EPUB binds it</source>
        <translation>#%1 还没有装订进任何电子书：点“生成 EPUB”</translation>
    </message>
    <message>
        <location filename="../main_window/books.py" line="48"/>
        <source>No program on this system opens EPUB books (xdg-mime names none for %1): %2 is shown here.</source>
        <translation>本系统没有能打开 EPUB 电子书的程序（xdg-mime 没有为 %1 指定任何程序）：%2 在这里显示。</translation>
    </message>
    <message>
        <location filename="../main_window/books.py" line="53"/>
        <source>%1 handed to %2</source>
        <translation>已用 %2 打开 %1</translation>
    </message>
    <message>
        <location filename="../main_window/books.py" line="38"/>
        <location filename="../main_window/books.py" line="54"/>
        <source>%1 handed to the system&apos;s reader</source>
        <translation>已用系统的阅读器打开 %1</translation>
    </message>
    <message>
        <location filename="../main_window/books.py" line="39"/>
        <source>The system could not open %1: no program for this kind of file started</source>
        <translation>系统无法打开 %1：没有能打开这类文件的程序启动</translation>
    </message>
    <message>
        <location filename="../main_window/books.py" line="57"/>
        <source>The system could not open %1 (it has no reader for EPUB books, or the reader did not start): it is shown here.</source>
        <translation>系统无法打开 %1（没有 EPUB 阅读器，或阅读器未能启动）：在这里显示。</translation>
    </message>
    <message>
        <location filename="../main_window/books.py" line="60"/>
        <source>%1, the system&apos;s reader for EPUB books, did not start for %2: it is shown here.</source>
        <translation>系统的 EPUB 阅读器 %1 未能打开 %2：在这里显示。</translation>
    </message>
    <message>
        <location filename="../main_window/books.py" line="70"/>
        <source>Reader</source>
        <translation>阅读器</translation>
    </message>
</context>
<context>
    <name>WindowHistory</name>
    <message>
        <location filename="../main_window/history.py" line="128"/>
        <source>Edit title</source>
        <translation>编辑标题</translation>
    </message>
    <message>
        <location filename="../main_window/history.py" line="128"/>
        <source>Edit category</source>
        <translation>编辑分类</translation>
    </message>
    <message>
        <location filename="../main_window/history.py" line="171"/>
        <source>Not done: #%1 is no longer on the list (removed meanwhile)</source>
        <translation>未执行：#%1 已不在列表中（其间已被移除）</translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/history.py" line="193"/>
        <source>Move %n tasks to the trash? Undo remove (Ctrl+Z) or the Trash tab brings them back.</source>
        <translation>
            <numerusform>把 %n 个任务移到回收站吗？可以用“撤销移除”（Ctrl+Z）或“回收站”标签页恢复。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/history.py" line="196"/>
        <source>Remove %n tasks</source>
        <translation>
            <numerusform>移除 %n 个任务</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/history.py" line="208"/>
        <source>%n tasks moved to the trash</source>
        <translation>
            <numerusform>已将 %n 个任务移到回收站</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../main_window/history.py" line="223"/>
        <source>Not done: #%1 is gone for good (the trash was emptied)</source>
        <translation>未执行：#%1 已永久删除（回收站已清空）</translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/history.py" line="231"/>
        <source>%n tasks restored</source>
        <translation>
            <numerusform>已恢复 %n 个任务</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/history.py" line="239"/>
        <source>Move %n tasks</source>
        <translation>
            <numerusform>移动 %n 个任务</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>WindowIntake</name>
    <message>
        <location filename="../main_window/intake.py" line="76"/>
        <source>Harvest: added %1 · duplicates %2 · rejected %3</source>
        <translation>采集：已添加 %1 · 重复 %2 · 拒绝 %3</translation>
    </message>
    <message>
        <location filename="../main_window/intake.py" line="95"/>
        <source>The demo site serves at %1: press %2, then %3</source>
        <translation>示例网站运行在 %1：先点“%2”，再点“%3”</translation>
    </message>
    <message>
        <location filename="../main_window/intake.py" line="105"/>
        <source>Import saved pages</source>
        <translation>导入保存的网页</translation>
    </message>
    <message>
        <location filename="../main_window/intake.py" line="106"/>
        <source>Saved pages and web archives (*.html *.htm *.mhtml *.mht *.warc *.warc.gz *.wacz);;All files (*)</source>
        <translation>保存的网页与网页归档文件 (*.html *.htm *.mhtml *.mht *.warc *.warc.gz *.wacz);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../main_window/intake.py" line="113"/>
        <source>Import a folder of saved pages</source>
        <translation>导入保存网页的文件夹</translation>
    </message>
    <message>
        <location filename="../main_window/intake.py" line="128"/>
        <source>Importing saved pages…</source>
        <translation>正在导入保存的网页…</translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/intake.py" line="136"/>
        <source>Importing saved pages… %1/%2 files, %n pages read</source>
        <translation>
            <numerusform>正在导入保存的网页… 文件 %1/%2，已读 %n 个网页</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../main_window/intake.py" line="140"/>
        <source>Import: imported %1 · no article %2 · duplicates %3 · not imported %4</source>
        <translation>导入：已导入 %1 · 无正文 %2 · 重复 %3 · 未导入 %4</translation>
    </message>
    <message>
        <location filename="../main_window/intake.py" line="145"/>
        <source>Back from the trash as #%1: %2</source>
        <translation>已从回收站恢复为 #%1：%2</translation>
    </message>
    <message>
        <location filename="../main_window/intake.py" line="148"/>
        <source>No article in %1: %2</source>
        <translation>%1 中没有正文：%2</translation>
    </message>
    <message>
        <location filename="../main_window/intake.py" line="150"/>
        <source>Already in the list as #%1: %2</source>
        <translation>已在列表中（#%1）：%2</translation>
    </message>
    <message>
        <location filename="../main_window/intake.py" line="152"/>
        <source>Not imported: %1: %2</source>
        <translation>未导入：%1：%2</translation>
    </message>
    <message>
        <location filename="../main_window/intake.py" line="165"/>
        <source>Import: %1</source>
        <translation>导入：%1</translation>
    </message>
    <message>
        <location filename="../main_window/intake.py" line="53"/>
        <source>The paste area&apos;s draft: %1</source>
        <translation>粘贴区草稿：%1</translation>
    </message>
</context>
<context>
    <name>WindowMenus</name>
    <message>
        <location filename="../main_window/menus.py" line="36"/>
        <source>Run selected</source>
        <translation>运行所选</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="37"/>
        <source>Clean again</source>
        <translation>重新清洗</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="38"/>
        <location filename="../main_window/menus.py" line="92"/>
        <source>Check for updates…</source>
        <translation>检查更新…</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="39"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="40"/>
        <source>Change category…</source>
        <translation>修改分类…</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="41"/>
        <source>Move up</source>
        <translation>上移</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="42"/>
        <source>Move down</source>
        <translation>下移</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="43"/>
        <source>Move to top</source>
        <translation>移到顶部</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="44"/>
        <source>Move to bottom</source>
        <translation>移到底部</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="45"/>
        <source>Open original</source>
        <translation>打开原文</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="46"/>
        <source>Open clean page</source>
        <translation>打开清洗后的页面</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="47"/>
        <source>Copy URL</source>
        <translation>复制网址</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="48"/>
        <source>Show in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="49"/>
        <source>Remove…</source>
        <translation>移除…</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="61"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="62"/>
        <source>&amp;Open archive…</source>
        <translation>打开归档(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="64"/>
        <source>&amp;New archive…</source>
        <translation>新建归档(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="66"/>
        <source>&amp;Recent archives</source>
        <translation>最近的归档(&amp;R)</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="68"/>
        <source>&amp;Import saved pages…</source>
        <translation>导入保存的网页(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="70"/>
        <source>Import a &amp;folder of saved pages…</source>
        <translation>导入保存网页的文件夹(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="71"/>
        <source>&amp;Export as WARC or WACZ…</source>
        <translation>导出为 WARC 或 WACZ(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="73"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="74"/>
        <source>Show archive folder</source>
        <translation>打开归档文件夹</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="76"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="77"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="79"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="81"/>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="87"/>
        <source>&amp;Find in articles…</source>
        <translation>在文章中查找(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="89"/>
        <source>&amp;Tasks</source>
        <translation>任务(&amp;T)</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="90"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="91"/>
        <source>&amp;Build EPUB</source>
        <translation>生成 EPUB(&amp;B)</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="93"/>
        <source>&amp;Harvest a list page…</source>
        <translation>从列表页采集(&amp;H)…</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="95"/>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="96"/>
        <source>Site &amp;rules…</source>
        <translation>站点规则(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="97"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="98"/>
        <source>&amp;Bottom tabs</source>
        <translation>底部标签页(&amp;B)</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="100"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="101"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="103"/>
        <source>&amp;About Kuaibu</source>
        <translation>关于快捕(&amp;A)</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="104"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="185"/>
        <source>About Kuaibu</source>
        <translation>关于快捕</translation>
    </message>
    <message>
        <location filename="../main_window/menus.py" line="186"/>
        <source>&lt;b&gt;Kuaibu 快捕&lt;/b&gt; %1&lt;br&gt;Web articles captured for offline reading and bound into EPUB.&lt;br&gt;&lt;br&gt;Archive: %2</source>
        <translation>&lt;b&gt;快捕 Kuaibu&lt;/b&gt; %1&lt;br&gt;抓取网页文章，离线阅读，装订成 EPUB 电子书。&lt;br&gt;&lt;br&gt;归档：%2</translation>
    </message>
</context>
<context>
    <name>WindowRules</name>
    <message>
        <location filename="../main_window/rules.py" line="38"/>
        <source>No stored pages of %1 yet.</source>
        <translation>%1 还没有已抓取的页面。</translation>
    </message>
    <message>
        <location filename="../main_window/rules.py" line="51"/>
        <source>A run is going; select the tasks and Clean again once it has ended.</source>
        <translation>正在运行任务；请在运行结束后选中这些任务并“重新清洗”。</translation>
    </message>
</context>
<context>
    <name>WindowRuns</name>
    <message>
        <location filename="../main_window/runs.py" line="34"/>
        <location filename="../main_window/runs.py" line="50"/>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/runs.py" line="43"/>
        <source>Cleaning %n pages again…</source>
        <translation>
            <numerusform>正在重新清洗 %n 个页面…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../main_window/runs.py" line="53"/>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location filename="../main_window/runs.py" line="108"/>
        <source>Report: %1</source>
        <translation>报告：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/runs.py" line="126"/>
        <source>Checking %n articles for updates…</source>
        <translation>
            <numerusform>正在检查 %n 篇文章的更新…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../main_window/runs.py" line="140"/>
        <source>Check for updates…</source>
        <translation>检查更新…</translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/runs.py" line="151"/>
        <source>Render the sites of these %n pages with the system&apos;s browser from now on (render: browser in rules.yaml), and try them again?</source>
        <translation>
            <numerusform>今后用系统的浏览器渲染这 %n 个页面所在的网站（rules.yaml 中的 render: browser），并重试它们吗？</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../main_window/runs.py" line="156"/>
        <source>Rendered with the browser from now on: %1</source>
        <translation>今后用浏览器渲染：%1</translation>
    </message>
    <message>
        <location filename="../main_window/runs.py" line="163"/>
        <source>Cannot render here</source>
        <translation>无法在本机渲染</translation>
    </message>
</context>
<context>
    <name>WindowShell</name>
    <message>
        <location filename="../main_window/shell.py" line="150"/>
        <location filename="../main_window/shell.py" line="332"/>
        <source>Kuaibu</source>
        <translation>快捕</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="157"/>
        <source>Filter by text…</source>
        <translation>按文字筛选…</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="164"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="165"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="166"/>
        <source>Domain</source>
        <translation>域名</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="202"/>
        <source>Selected</source>
        <translation>所选</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="224"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="225"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="226"/>
        <source>Failures</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="227"/>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="228"/>
        <source>Duplicates</source>
        <translation>重复</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="229"/>
        <source>Books</source>
        <translation>电子书</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="230"/>
        <source>Trash</source>
        <translation>回收站</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="231"/>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="243"/>
        <source>&lt;b&gt;No tasks yet.&lt;/b&gt;&lt;br&gt;Paste links on the left and press %1 (Ctrl+Enter), drop a bookmarks export anywhere on the window, or try the bundled demo site.</source>
        <translation>&lt;b&gt;还没有任务。&lt;/b&gt;&lt;br&gt;在左边粘贴链接并点“%1”（Ctrl+Enter），把书签导出文件拖到窗口任意位置，或者试试自带的示例网站。</translation>
    </message>
    <message>
        <location filename="../main_window/shell.py" line="248"/>
        <source>Try the demo site</source>
        <translation>试试示例网站</translation>
    </message>
</context>
<context>
    <name>WindowTable</name>
    <message>
        <location filename="../main_window/table.py" line="112"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
</context>
<context>
    <name>WindowTaskActions</name>
    <message>
        <location filename="../main_window/task_actions.py" line="94"/>
        <source>Change category</source>
        <translation>修改分类</translation>
    </message>
    <message>
        <location filename="../main_window/task_actions.py" line="98"/>
        <source>Move to category</source>
        <translation>移到分类</translation>
    </message>
    <message>
        <location filename="../main_window/task_actions.py" line="103"/>
        <source>Rename category</source>
        <translation>重命名分类</translation>
    </message>
</context>
</TS>
