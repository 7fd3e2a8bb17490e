//! A browser for tests of accounts: it keeps the session and device cookies the server
//! sets, sends the site's own origin (or another, or none) and, if given, a seat token.

use reqwest::Method;
use serde_json::{json, Value};

use super::TestServer;

/// One browser: a session cookie, kept as the server set it.
pub struct Browser<'a> {
    pub server: &'a TestServer,
    pub cookie: Option<String>,
    /// The device cookie: the browser's own, kept across sign-ins and sign-outs.
    pub device: Option<String>,
    pub origin: Option<String>,
    /// A seat token sent as `X-Seat-Token`.
    pub token: Option<String>,
    /// The `Host` the request names (the server's address when `None`).
    pub host: Option<String>,
    /// The client's address as a trusted proxy would forward it (`X-Forwarded-For`).
    pub forwarded_for: Option<String>,
}

/// An answer: status, `Set-Cookie` (if any) and body.
pub struct Answer {
    pub status: u16,
    pub set_cookie: Option<String>,
    pub retry_after: Option<String>,
    pub disposition: Option<String>,
    pub body: Value,
}

impl<'a> Browser<'a> {
    /// A page of the site itself: it sends the site's own origin.
    pub fn new(server: &'a TestServer) -> Browser<'a> {
        Browser {
            server,
            cookie: None,
            device: None,
            origin: Some(server.base.clone()),
            token: None,
            host: None,
            forwarded_for: None,
        }
    }

    /// A browser at `address` behind a trusted proxy, with the session `cookie`.
    pub fn at(server: &'a TestServer, address: &str, cookie: Option<String>) -> Browser<'a> {
        Browser {
            forwarded_for: Some(address.to_string()),
            cookie,
            ..Browser::new(server)
        }
    }

    pub async fn send(&mut self, method: Method, path: &str, body: Option<Value>) -> Answer {
        let mut request = self
            .server
            .client
            .request(method, format!("{}{path}", self.server.base));
        let mut cookies = vec!["a=1".to_string()];
        if let Some(cookie) = &self.cookie {
            cookies.push(format!("rumi_session={cookie}"));
        }
        if let Some(device) = &self.device {
            cookies.push(format!("rumi_device={device}"));
        }
        if cookies.len() > 1 {
            request = request.header("cookie", cookies.join("; "));
        }
        if let Some(host) = &self.host {
            request = request.header("host", host);
        }
        if let Some(address) = &self.forwarded_for {
            request = request.header("x-forwarded-for", address);
        }
        if let Some(token) = &self.token {
            request = request.header("x-seat-token", token);
        }
        if let Some(origin) = &self.origin {
            request = request.header("origin", origin);
        }
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body.to_string());
        }
        let response = request.send().await.unwrap();
        let header = |name: &str| {
            response
                .headers()
                .get(name)
                .map(|v| v.to_str().unwrap().to_string())
        };
        let set_cookies: Vec<String> = response
            .headers()
            .get_all("set-cookie")
            .iter()
            .map(|v| v.to_str().unwrap().to_string())
            .collect();
        let value_of = |set: &str, name: &str| {
            set.strip_prefix(name)
                .map(|rest| rest.split(';').next().unwrap().to_string())
        };
        let set_cookie = set_cookies
            .iter()
            .find(|s| s.starts_with("rumi_session="))
            .cloned();
        let retry_after = header("retry-after");
        let disposition = header("content-disposition");
        let status = response.status().as_u16();
        for set in &set_cookies {
            if let Some(value) = value_of(set, "rumi_session=") {
                self.cookie = (!value.is_empty()).then_some(value);
            } else if let Some(value) = value_of(set, "rumi_device=") {
                self.device = (!value.is_empty()).then_some(value);
            }
        }
        Answer {
            status,
            set_cookie,
            retry_after,
            disposition,
            body: response.json().await.unwrap_or(Value::Null),
        }
    }

    pub async fn sign_up(&mut self, name: &str, password: &str) -> Answer {
        let body = json!({"name": name, "password": password});
        self.send(Method::POST, "/api/accounts", Some(body)).await
    }

    pub async fn sign_in(&mut self, name: &str, password: &str) -> Answer {
        let body = json!({"name": name, "password": password});
        self.send(Method::POST, "/api/session", Some(body)).await
    }

    pub async fn me(&mut self) -> Answer {
        self.send(Method::GET, "/api/me", None).await
    }
}

impl Browser<'_> {
    pub async fn get(&mut self, path: &str) -> Answer {
        self.send(Method::GET, path, None).await
    }

    pub async fn post(&mut self, path: &str, body: Value) -> Answer {
        self.send(Method::POST, path, Some(body)).await
    }
}

/// The password the tests' accounts are made with.
pub const PASSWORD: &str = "stones of the inca 7";

/// A browser of a new account `name` (signed up with [`PASSWORD`], so signed in).
pub async fn signed_up<'a>(server: &'a TestServer, name: &str) -> Browser<'a> {
    let mut browser = Browser::new(server);
    let made = browser.sign_up(name, PASSWORD).await;
    assert_eq!(made.status, 201, "{}", made.body);
    browser
}
