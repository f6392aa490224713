// Starts Swagger UI on the gateway's OpenAPI document (loaded by /api/docs).
window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#ui', deepLinking: true });
