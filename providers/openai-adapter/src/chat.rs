//! The part of the OpenAI chat completions API the adapter speaks: a request with a system and a
//! user message and `response_format: {"type": "json_object"}`, and the answer's
//! `choices[0].message.content` and `usage`.
//!
//! Why only these fields: the adapter needs one JSON answer and its token counts. The answer
//! types do not refuse unknown fields (servers add their own: `id`, `created`,
//! `system_fingerprint`, …); what the model wrote is read strictly afterwards, as our own type.

use serde::{Deserialize, Serialize};

/// What is POSTed to `/v1/chat/completions`.
#[derive(Debug, Serialize)]
pub struct ChatRequest<'a> {
    /// The model the deployment named (`--model`).
    pub model: &'a str,
    /// The instructions, then the page.
    pub messages: Vec<Message<'a>>,
    /// Always `{"type": "json_object"}`: the answer must be one JSON object.
    pub response_format: ResponseFormat,
}

/// One chat message.
#[derive(Debug, Serialize)]
pub struct Message<'a> {
    /// `system` or `user`.
    pub role: &'static str,
    /// Text, or text and an image.
    pub content: Content<'a>,
}

/// A message's content: plain text, or parts (text and an image) for a model that reads images.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Content<'a> {
    /// One text.
    Text(String),
    /// Several parts.
    Parts(Vec<Part<'a>>),
}

/// One part of a message's content.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Part<'a> {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// An image, as a `data:` URL.
    ImageUrl {
        /// Where the image is.
        image_url: ImageUrl<'a>,
    },
}

/// An image reference.
#[derive(Debug, Serialize)]
pub struct ImageUrl<'a> {
    /// `data:image/png;base64,…`.
    pub url: std::borrow::Cow<'a, str>,
}

/// The answer's required format.
#[derive(Debug, Serialize)]
pub struct ResponseFormat {
    /// `json_object`.
    #[serde(rename = "type")]
    pub kind: &'static str,
}

impl ResponseFormat {
    /// One JSON object.
    pub const JSON_OBJECT: ResponseFormat = ResponseFormat {
        kind: "json_object",
    };
}

/// What the model server answers (the fields the adapter reads).
#[derive(Debug, Deserialize)]
pub struct ChatResponse {
    /// The completions; the adapter reads the first.
    pub choices: Vec<Choice>,
    /// Token counts, when the server reports them.
    #[serde(default)]
    pub usage: Option<ChatUsage>,
}

/// One completion.
#[derive(Debug, Deserialize)]
pub struct Choice {
    /// The assistant's message.
    pub message: AssistantMessage,
    /// Why the model stopped (`stop`, `length`, …).
    #[serde(default)]
    pub finish_reason: Option<String>,
}

/// The assistant's message.
#[derive(Debug, Deserialize)]
pub struct AssistantMessage {
    /// What it wrote.
    #[serde(default)]
    pub content: Option<String>,
    /// Why it declined, when it did.
    #[serde(default)]
    pub refusal: Option<String>,
}

/// Token counts of one completion.
#[derive(Debug, Clone, Copy, Deserialize)]
pub struct ChatUsage {
    /// Tokens read.
    #[serde(default)]
    pub prompt_tokens: u64,
    /// Tokens written.
    #[serde(default)]
    pub completion_tokens: u64,
}
