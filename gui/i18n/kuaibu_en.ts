<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>BooksView</name>
    <message numerus="yes">
        <location filename="../books_view.py" line="104"/>
        <source>%n books, %1 out of date</source>
        <translation>
            <numerusform>%n book, %1 out of date</numerusform>
            <numerusform>%n books, %1 out of date</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BuildBar</name>
    <message numerus="yes">
        <location filename="../build_bar.py" line="170"/>
        <source>%n articles in %1</source>
        <translation>
            <numerusform>%n article in %1</numerusform>
            <numerusform>%n articles in %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../build_bar.py" line="173"/>
        <source>; %n near duplicates left out (see Duplicates)</source>
        <translation>
            <numerusform>; %n near duplicate left out (see Duplicates)</numerusform>
            <numerusform>; %n near duplicates left out (see Duplicates)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ContentPicker</name>
    <message numerus="yes">
        <location filename="../rules_editor/pick_content.py" line="169"/>
        <source>It finds an article on %1 of the %n other archived pages of %2.</source>
        <translation>
            <numerusform>It finds an article on %1 of the %n other archived page of %2.</numerusform>
            <numerusform>It finds an article on %1 of the %n other archived pages of %2.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DomainTrial</name>
    <message numerus="yes">
        <location filename="../rules_editor/domain_trial.py" line="147"/>
        <source>%n stored pages of %1: %2 would lose their article, %3 get shorter, %4 longer.</source>
        <translation>
            <numerusform>%n stored page of %1: %2 would lose its article, %3 get shorter, %4 longer.</numerusform>
            <numerusform>%n stored pages of %1: %2 would lose their article, %3 get shorter, %4 longer.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DuplicatesView</name>
    <message numerus="yes">
        <location filename="../duplicates_view.py" line="234"/>
        <source>%n bits</source>
        <translation>
            <numerusform>%n bit</numerusform>
            <numerusform>%n bits</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../duplicates_view.py" line="249"/>
        <source>%n near-duplicate pairs, %1 to judge.</source>
        <translation>
            <numerusform>%n near-duplicate pair, %1 to judge.</numerusform>
            <numerusform>%n near-duplicate pairs, %1 to judge.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../duplicates_view.py" line="251"/>
        <source>%n exact duplicates (the same text under another link) were set aside by the run.</source>
        <translation>
            <numerusform>%n exact duplicate (the same text under another link) was set aside by the run.</numerusform>
            <numerusform>%n exact duplicates (the same text under another link) were set aside by the run.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../duplicates_view.py" line="321"/>
        <source>%n places differ: struck through in red only in #%1, in green only in #%2.</source>
        <translation>
            <numerusform>%n place differs: struck through in red only in #%1, in green only in #%2.</numerusform>
            <numerusform>%n places differ: struck through in red only in #%1, in green only in #%2.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FailuresView</name>
    <message numerus="yes">
        <location filename="../failures_view.py" line="252"/>
        <source>%n failed tasks</source>
        <translation>
            <numerusform>%n failed task</numerusform>
            <numerusform>%n failed tasks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FilterState</name>
    <message numerus="yes">
        <location filename="../filter_state.py" line="40"/>
        <source>%n tasks</source>
        <translation>
            <numerusform>%n task</numerusform>
            <numerusform>%n tasks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>HarvestDialog</name>
    <message numerus="yes">
        <location filename="../harvest_dialog.py" line="169"/>
        <source>A list page (%1): %n links on %2, %3 look like articles and are checked.</source>
        <translation>
            <numerusform>A list page (%1): %n link on %2, %3 look like articles and are checked.</numerusform>
            <numerusform>A list page (%1): %n links on %2, %3 look like articles and are checked.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../harvest_dialog.py" line="171"/>
        <source>%n pages</source>
        <translation>
            <numerusform>%n page</numerusform>
            <numerusform>%n pages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../harvest_dialog.py" line="225"/>
        <source>Adding %n links…</source>
        <translation>
            <numerusform>Adding %n link…</numerusform>
            <numerusform>Adding %n links…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>IntakePanel</name>
    <message numerus="yes">
        <location filename="../intake_panel.py" line="203"/>
        <source>File by the bookmarks&apos; folders (%n folders)</source>
        <translation>
            <numerusform>File by the bookmarks&apos; folders (%n folder)</numerusform>
            <numerusform>File by the bookmarks&apos; folders (%n folders)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PreviewPane</name>
    <message numerus="yes">
        <location filename="../preview.py" line="103"/>
        <source>%n characters, confidence %1</source>
        <translation>
            <numerusform>%n character, confidence %1</numerusform>
            <numerusform>%n characters, confidence %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReportView</name>
    <message numerus="yes">
        <location filename="../report_view.py" line="195"/>
        <source>%n tasks</source>
        <translation>
            <numerusform>%n task</numerusform>
            <numerusform>%n tasks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RulesEditor</name>
    <message numerus="yes">
        <location filename="../rules_editor/window.py" line="399"/>
        <source>Clean again %n articles of every site?</source>
        <translation>
            <numerusform>Clean again %n article of every site?</numerusform>
            <numerusform>Clean again %n articles of every site?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../rules_editor/window.py" line="401"/>
        <source>Clean again %n articles of %1?</source>
        <translation>
            <numerusform>Clean again %n article of %1?</numerusform>
            <numerusform>Clean again %n articles of %1?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../rules_editor/window.py" line="441"/>
        <source>Saved; cleaning %n pages of %1 again…</source>
        <translation>
            <numerusform>Saved; cleaning %n page of %1 again…</numerusform>
            <numerusform>Saved; cleaning %n pages of %1 again…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SearchPanel</name>
    <message numerus="yes">
        <location filename="../search_panel.py" line="275"/>
        <source>%n articles found</source>
        <translation>
            <numerusform>%n article found</numerusform>
            <numerusform>%n articles found</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TaskPreview</name>
    <message numerus="yes">
        <location filename="../rules_editor/task_preview.py" line="139"/>
        <source>Content selector %1 matched %n elements (%2 characters)</source>
        <translation>
            <numerusform>Content selector %1 matched %n element (%2 characters)</numerusform>
            <numerusform>Content selector %1 matched %n elements (%2 characters)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../rules_editor/task_preview.py" line="143"/>
        <source>Title selector %1 matched %n elements</source>
        <translation>
            <numerusform>Title selector %1 matched %n element</numerusform>
            <numerusform>Title selector %1 matched %n elements</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../rules_editor/task_preview.py" line="149"/>
        <source>Strip %1 removed %n elements (%2 characters)</source>
        <translation>
            <numerusform>Strip %1 removed %n element (%2 characters)</numerusform>
            <numerusform>Strip %1 removed %n elements (%2 characters)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TrashView</name>
    <message numerus="yes">
        <location filename="../trash_view.py" line="125"/>
        <source>%n tasks in the trash</source>
        <translation>
            <numerusform>%n task in the trash</numerusform>
            <numerusform>%n tasks in the trash</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../trash_view.py" line="189"/>
        <source>Delete the %n tasks in the trash for good, with their stored pages and articles? This cannot be undone.</source>
        <translation>
            <numerusform>Delete the %n task in the trash for good, with its stored pages and article? This cannot be undone.</numerusform>
            <numerusform>Delete the %n tasks in the trash for good, with their stored pages and articles? This cannot be undone.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>UpdateCheck</name>
    <message numerus="yes">
        <location filename="../update_check.py" line="88"/>
        <source>Check %n archived articles for updates? Each is asked of its site again; a changed one keeps its old copy in the archive&apos;s history.</source>
        <translation>
            <numerusform>Check %n archived article for updates? It is asked of its site again; if it changed, its old copy stays in the archive&apos;s history.</numerusform>
            <numerusform>Check %n archived articles for updates? Each is asked of its site again; a changed one keeps its old copy in the archive&apos;s history.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../update_check.py" line="124"/>
        <source>Stopped: %n articles were not checked.</source>
        <translation>
            <numerusform>Stopped: %n article was not checked.</numerusform>
            <numerusform>Stopped: %n articles were not checked.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>WindowArchive</name>
    <message numerus="yes">
        <location filename="../main_window/archive.py" line="104"/>
        <source>Opening %1: reading about %n tasks…</source>
        <translation>
            <numerusform>Opening %1: reading %n task…</numerusform>
            <numerusform>Opening %1: reading about %n tasks…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/archive.py" line="147"/>
        <source>Opened %1; %n tasks wait to be run (%2 takes them up)</source>
        <translation>
            <numerusform>Opened %1; %n task waits to be run (%2 takes it up)</numerusform>
            <numerusform>Opened %1; %n tasks wait to be run (%2 takes them up)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>WindowHistory</name>
    <message numerus="yes">
        <location filename="../main_window/history.py" line="193"/>
        <source>Move %n tasks to the trash? Undo remove (Ctrl+Z) or the Trash tab brings them back.</source>
        <translation>
            <numerusform>Move %n task to the trash? Undo remove (Ctrl+Z) or the Trash tab brings it back.</numerusform>
            <numerusform>Move %n tasks to the trash? Undo remove (Ctrl+Z) or the Trash tab brings them back.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/history.py" line="196"/>
        <source>Remove %n tasks</source>
        <translation>
            <numerusform>Remove %n task</numerusform>
            <numerusform>Remove %n tasks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/history.py" line="208"/>
        <source>%n tasks moved to the trash</source>
        <translation>
            <numerusform>%n task moved to the trash</numerusform>
            <numerusform>%n tasks moved to the trash</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/history.py" line="231"/>
        <source>%n tasks restored</source>
        <translation>
            <numerusform>%n task restored</numerusform>
            <numerusform>%n tasks restored</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/history.py" line="239"/>
        <source>Move %n tasks</source>
        <translation>
            <numerusform>Move %n task</numerusform>
            <numerusform>Move %n tasks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>WindowIntake</name>
    <message numerus="yes">
        <location filename="../main_window/intake.py" line="136"/>
        <source>Importing saved pages… %1/%2 files, %n pages read</source>
        <translation>
            <numerusform>Importing saved pages… %1/%2 files, %n page read</numerusform>
            <numerusform>Importing saved pages… %1/%2 files, %n pages read</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>WindowRuns</name>
    <message numerus="yes">
        <location filename="../main_window/runs.py" line="43"/>
        <source>Cleaning %n pages again…</source>
        <translation>
            <numerusform>Cleaning %n page again…</numerusform>
            <numerusform>Cleaning %n pages again…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/runs.py" line="126"/>
        <source>Checking %n articles for updates…</source>
        <translation>
            <numerusform>Checking %n article for updates…</numerusform>
            <numerusform>Checking %n articles for updates…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../main_window/runs.py" line="151"/>
        <source>Render the sites of these %n pages with the system&apos;s browser from now on (render: browser in rules.yaml), and try them again?</source>
        <translation>
            <numerusform>Render the site of this page with the system&apos;s browser from now on (render: browser in rules.yaml), and try it again?</numerusform>
            <numerusform>Render the sites of these %n pages with the system&apos;s browser from now on (render: browser in rules.yaml), and try them again?</numerusform>
        </translation>
    </message>
</context>
</TS>
