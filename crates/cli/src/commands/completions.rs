//! `ccmail completions SHELL` and `ccmail manpage`: the shell completion script and the man
//! page, both made from the command line's own definitions ([`crate::cli::Cli`]) by
//! clap_complete and clap_mangen, so they can't drift from `--help`.

use std::io::Write;

use crate::cli::Shell;

/// The completion script for `shell`, on standard output.
pub fn completions(shell: Shell) -> anyhow::Result<()> {
    let mut command = crate::cli::command();
    let mut out = std::io::stdout().lock();
    let shell = match shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    clap_complete::generate(shell, &mut command, "ccmail", &mut out);
    out.flush()?;
    Ok(())
}

/// The man page, ccmail(1), in roff on standard output: every command with its options.
pub fn manpage() -> anyhow::Result<()> {
    let command = crate::cli::command();
    let mut out = std::io::stdout().lock();
    let man = clap_mangen::Man::new(command.clone());
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    // Each command with its own options, as `ccmail COMMAND --help` gives them.
    for sub in command
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        write_command(&mut out, &[], sub)?;
    }
    man.render_version_section(&mut out)?;
    writeln!(
        out,
        // not the interface's: the man page's roff markup
        ".SH FILES\n.TP\n$XDG_CONFIG_HOME/ccmail/config.toml\n{}\n.TP\n\
         $XDG_DATA_HOME/ccmail/ccmail.db\n{}\n.SH SEE ALSO\n{}",
        // not the interface's: the man page's roff markup
        ccmail::t!("cmd-man-config", init = "\\fBccmail init\\fR"),
        ccmail::t!("cmd-man-database"),
        ccmail::t!("cmd-man-see-also")
    )?;
    out.flush()?;
    Ok(())
}

/// One command (and its subcommands) as a section of the man page.
fn write_command(out: &mut impl Write, path: &[&str], c: &clap::Command) -> anyhow::Result<()> {
    let mut names: Vec<&str> = path.to_vec();
    names.push(c.get_name());
    let title = format!("ccmail {}", names.join(" "));
    writeln!(out, ".SH \"{}\"", title.to_uppercase())?;
    let about = c
        .get_long_about()
        .or_else(|| c.get_about())
        .map(ToString::to_string)
        .unwrap_or_default();
    for para in about.split("\n\n") {
        writeln!(out, ".PP\n{}", roff_text(para))?;
    }
    for arg in c.get_arguments().filter(|a| !a.is_hide_set()) {
        let name = match (arg.get_long(), arg.get_short()) {
            (Some(long), _) => format!("\\-\\-{long}"),
            (None, Some(short)) => format!("\\-{short}"),
            (None, None) => arg.get_value_names().and_then(|v| v.first()).map_or_else(
                || arg.get_id().to_string().to_uppercase(),
                ToString::to_string,
            ),
        };
        let help = arg
            .get_long_help()
            .or_else(|| arg.get_help())
            .map(ToString::to_string)
            .unwrap_or_default();
        // not the interface's: the man page's roff markup
        writeln!(out, ".TP\n\\fB{name}\\fR\n{}", roff_text(&help))?;
    }
    for sub in c
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        write_command(out, &names, sub)?;
    }
    Ok(())
}

/// Plain text for roff: backslashes and leading dots or quotes escaped.
fn roff_text(text: &str) -> String {
    text.lines()
        .map(|l| {
            let l = l.replace('\\', "\\e").replace('-', "\\-");
            if l.starts_with('.') || l.starts_with('\'') {
                format!("\\&{l}")
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
