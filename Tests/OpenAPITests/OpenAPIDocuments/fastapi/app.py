"""A small FastAPI app whose generated OpenAPI document (fastapi.json beside this file) the import is tested on.

Regenerate with generate.sh; the document is committed so the Swift tests need no Python.
"""
from datetime import datetime
from enum import Enum
from typing import Annotated, Optional

from fastapi import FastAPI, File, Form, HTTPException, Query, UploadFile, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi import Depends
from pydantic import BaseModel, EmailStr, Field

app = FastAPI(title="Bookshelf", version="0.3.0", description="Books, reviews and covers.")
bearer = HTTPBearer()


class Genre(str, Enum):
    fiction = "fiction"
    science = "science"
    history = "history"


class BookIn(BaseModel):
    title: str = Field(min_length=1, max_length=200)
    author: str
    genre: Genre
    year: Optional[int] = Field(default=None, ge=1450, le=2100)
    tags: list[str] = []


class Book(BookIn):
    id: int
    added_at: datetime


class Review(BaseModel):
    stars: int = Field(ge=1, le=5)
    text: Optional[str] = None
    reviewer: EmailStr


class Message(BaseModel):
    detail: str


@app.get("/books", tags=["books"], response_model=list[Book])
def list_books(
    genre: Optional[Genre] = None,
    q: Annotated[Optional[str], Query(min_length=2)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
):
    return []


@app.post("/books", tags=["books"], response_model=Book, status_code=status.HTTP_201_CREATED)
def add_book(book: BookIn, credentials: HTTPAuthorizationCredentials = Depends(bearer)):
    raise HTTPException(status_code=501)


@app.get("/books/{book_id}", tags=["books"], response_model=Book, responses={404: {"model": Message}})
def get_book(book_id: int):
    raise HTTPException(status_code=404, detail="no such book")


@app.delete("/books/{book_id}", tags=["books"], status_code=status.HTTP_204_NO_CONTENT,
            responses={404: {"model": Message}})
def delete_book(book_id: int, credentials: HTTPAuthorizationCredentials = Depends(bearer)):
    return None


@app.post("/books/{book_id}/reviews", tags=["reviews"], response_model=Review, status_code=201)
def add_review(book_id: int, review: Review):
    return review


@app.post("/books/{book_id}/cover", tags=["books"], response_model=Message)
def upload_cover(book_id: int, cover: UploadFile = File(...), caption: Optional[str] = Form(None)):
    return Message(detail="stored")


@app.post("/login", tags=["auth"])
def login(username: Annotated[str, Form()], password: Annotated[str, Form()]) -> dict[str, str]:
    return {"token": "t"}


@app.get("/health")
def health() -> str:
    return "ok"
