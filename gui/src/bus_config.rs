//! The private session bus's configuration file.
//!
//! Why generated: the stock session configuration includes `<standard_session_servicedirs/>`,
//! and with it D-Bus auto-starts services on first use — a second accessibility bus launcher and
//! `dconf-service`, processes the tool did not start and whose lifetime it would not own. This
//! configuration listens on one Unix socket in the desktop's private folder, activates nothing,
//! and lets every connection of the (single-user) desktop talk to every other.

use std::path::Path;

/// The configuration text for a session bus listening on `socket`.
pub(crate) fn session_bus_config(socket: &Path) -> String {
    let socket = escape(&socket.to_string_lossy());
    format!(
        r#"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"#
    )
}

/// Escape the five XML special characters of a path placed in element text.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_configuration_activates_nothing_and_escapes_its_socket_path() {
        let config = session_bus_config(Path::new("/tmp/a&b<c>/bus"));
        assert!(config.contains("<listen>unix:path=/tmp/a&amp;b&lt;c&gt;/bus</listen>"));
        assert!(
            !config.contains("servicedir"),
            "no service may be auto-started"
        );
    }
}
