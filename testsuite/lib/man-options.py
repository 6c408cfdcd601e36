#!/usr/bin/env python3
"""Check that the rendered man pages (docs/man/) cannot drift from the code.

  man-options.py tool HUGETEXT PAGE
      every command that `HUGETEXT --help` lists has a section of PAGE
      (hugetext.1) named after it in capitals; every option that
      `HUGETEXT CMD --help` prints (its lines that start with blanks and
      "-") is in that section; the exit statuses of its "Exit status:"
      paragraph are those of the section "hugetext CMD" under EXIT STATUS;
      an option that --help shows with an argument (--list=LIST) is in
      the section with that argument's name.

  man-options.py plugin OPTIONS_C PAGE
      every option that the plugin's parser (plugin_option_parse in
      ld-plugin/options.c) accepts is in the OPTIONS section of PAGE
      (hugetext-plugin.7) as -plugin-opt=NAME, the list of its "unknown
      option" message names the same options, and OPTIONS names no other.

PAGE is the roff that pandoc wrote.  Prints one line per missing fact and
exits 1 if there is any, 0 if none, 2 if something cannot be read.
"""

import re
import subprocess
import sys


def die(msg):
    print("man-options.py: error: %s" % msg, file=sys.stderr)
    sys.exit(2)


ESCAPES = {"aq": "'", "dq": '"', "lq": '"', "rq": '"', "em": "--",
           "en": "-", "hy": "-", "ti": "~", "ha": "^", "rs": "\\"}


def roff_text(line):
    """The text of one roff line, fonts and escapes resolved."""
    line = re.sub(r"\\f(\[[^]]*\]|\(..|.)", "", line)
    line = re.sub(r"\\\[([a-z]+)\]",
                  lambda m: ESCAPES.get(m.group(1), " "), line)
    line = re.sub(r"\\\((..)", lambda m: ESCAPES.get(m.group(1), " "), line)
    line = line.replace("\\-", "-").replace("\\&", "").replace("\\ ", " ")
    line = line.replace("\\e", "\\").replace("\\~", " ")
    return line


def sections(page):
    """{".SH title": text, ".SS title": text} of the roff file PAGE; an
    .SS's text is also part of its .SH's."""
    try:
        with open(page, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        die("%s: %s" % (page, e.strerror))
    out = {}
    sh = ss = None
    for line in lines:
        m = re.match(r'\.(SH|SS)\s+"?(.*?)"?\s*$', line)
        if m:
            title = roff_text(m.group(2))
            if m.group(1) == "SH":
                sh, ss = title, None
                out.setdefault(("SH", sh), [])
            else:
                ss = title
                out.setdefault(("SS", sh, ss), [])
            continue
        if line.startswith(".") and not line.startswith(".\\") and \
                not re.match(r"\.(B|I|BR|IR|RB|RI)\s", line):
            continue  # a request (.TP, .PP, .IP, ...) holds no text
        text = roff_text(re.sub(r"^\.[A-Z]+\s+", "", line))
        if sh is not None:
            out[("SH", sh)].append(text)
        if ss is not None:
            out[("SS", sh, ss)].append(text)
    if not out:
        die("%s: no .SH section: not a man page" % page)
    return {k: "\n".join(v) for k, v in out.items()}


def mentions(text, word, follow=r"(?![\w-])"):
    return re.search(r"(?<![\w-])" + re.escape(word) + follow, text) \
        is not None


def run_help(argv):
    run = subprocess.run(argv, capture_output=True, text=True)
    if run.returncode != 0 or not run.stdout:
        die("%s: exit %d: %s" % (" ".join(argv), run.returncode,
                                 run.stderr.strip()))
    return run.stdout


def check_tool(hugetext, page):
    secs = sections(page)
    missing = []
    top = run_help([hugetext, "--help"])
    block = top.split("Commands:", 1)
    if len(block) != 2:
        die("%s --help: no 'Commands:' list" % hugetext)
    commands = re.findall(r"^  (\S+)\s", block[1], re.M)
    if not commands:
        die("%s --help: no command in its 'Commands:' list" % hugetext)
    for cmd in commands:
        text = secs.get(("SH", cmd.upper()))
        if text is None:
            missing.append("%s: no section %s for 'hugetext %s'"
                           % (page, cmd.upper(), cmd))
            continue
        helptext = run_help([hugetext, cmd, "--help"])
        options = []
        forms = []
        for line in helptext.splitlines():
            if re.match(r"^\s+-", line):
                spec = re.split(r"\s{2,}", line.strip())[0]
                options += re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)",
                                      spec)
                # An option with its argument, as --help names it
                # (--list=LIST, --delay[=SECONDS]): the man page must
                # name the argument alike.
                forms += re.findall(
                    r"(?<![\w-])(--[A-Za-z][\w-]*(?:=|\[=)[A-Z][\w]*\]?)",
                    spec)
        if not options:
            die("%s %s --help: no option line" % (hugetext, cmd))
        for opt in options:
            if not mentions(text, opt):
                missing.append("%s: section %s lacks %s (from 'hugetext %s "
                               "--help')" % (page, cmd.upper(), opt, cmd))
        for form in forms:
            if form not in text:
                missing.append("%s: section %s lacks %s as 'hugetext %s "
                               "--help' writes it" % (page, cmd.upper(),
                                                      form, cmd))
        # The exit statuses: "Exit status: 0 ...; 2 ..., 3 ..." in the
        # help, the tagged paragraphs of EXIT STATUS / "hugetext CMD".
        para = re.search(r"^Exit status:(.*?)(?:\n\n|\Z)", helptext,
                         re.M | re.S)
        if para is None:
            die("%s %s --help: no 'Exit status:' paragraph" % (hugetext,
                                                               cmd))
        said = set(re.findall(r"(?:^|[;,.:]\s+)(\d+)\s",
                              " ".join(para.group(1).split()) + " "))
        exits = secs.get(("SS", "EXIT STATUS", "hugetext " + cmd))
        if exits is None:
            missing.append("%s: no section 'hugetext %s' under EXIT STATUS"
                           % (page, cmd))
            continue
        listed = set(re.findall(r"^(\d+)$", exits, re.M))
        for n in sorted(said - listed, key=int):
            missing.append("%s: EXIT STATUS, hugetext %s: no status %s "
                           "(from its --help)" % (page, cmd, n))
        for n in sorted(listed - said, key=int):
            missing.append("%s: EXIT STATUS, hugetext %s: status %s is not "
                           "in its --help" % (page, cmd, n))
    return missing


def check_plugin(options_c, page):
    try:
        with open(options_c, encoding="utf-8") as f:
            source = f.read()
    except OSError as e:
        die("%s: %s" % (options_c, e.strerror))
    body = re.search(r"\nplugin_option_parse\s*\(.*?\n}\n", source, re.S)
    if body is None:
        die("%s: no function plugin_option_parse" % options_c)
    body = body.group(0)
    accepted = re.findall(r'strcmp\s*\(\s*opt\s*,\s*"([^"]+)"\s*\)', body)
    accepted += re.findall(r'startswith\s*\(\s*opt\s*,\s*"([^"]+)"', body)
    if not accepted:
        die("%s: plugin_option_parse compares with no option name"
            % options_c)
    missing = []
    known = re.search(r'\(known:((?:[^)"]|"\s*")*)\)', body)
    if known is None:
        die("%s: no '(known: ...)' list in plugin_option_parse" % options_c)
    listed = {re.sub(r"=.*", "=", w.strip())
              for w in re.sub(r'"\s*"', "", known.group(1)).split(",")}
    if listed != set(accepted):
        missing.append("%s: the 'unknown option' message lists %s, the "
                       "parser accepts %s" % (options_c, sorted(listed),
                                              sorted(accepted)))
    text = sections(page).get(("SH", "OPTIONS"))
    if text is None:
        return missing + ["%s: no section OPTIONS" % page]
    for name in accepted:
        follow = "" if name.endswith("=") else r"(?![\w=-])"
        if not mentions(text, "-plugin-opt=" + name, follow):
            missing.append("%s: OPTIONS lacks -plugin-opt=%s (accepted by "
                           "%s)" % (page, name, options_c))
    for name in re.findall(r"-plugin-opt=([\w-]+=?)", text):
        if name not in accepted and name != "OPTION":
            missing.append("%s: OPTIONS has -plugin-opt=%s, which %s does "
                           "not accept" % (page, name, options_c))
    return missing


def main(argv):
    if len(argv) != 4 or argv[1] not in ("tool", "plugin"):
        die("usage: man-options.py tool HUGETEXT PAGE | "
            "plugin OPTIONS_C PAGE")
    check = check_tool if argv[1] == "tool" else check_plugin
    missing = check(argv[2], argv[3])
    for line in missing:
        print(line)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
